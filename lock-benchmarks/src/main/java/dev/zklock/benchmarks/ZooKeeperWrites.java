package dev.zklock.benchmarks;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.MultiOperationRecord;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Counts the write requests that a Curator client sends to ZooKeeper: a
 * {@link ZookeeperFactory} whose ZooKeeper handles count every create, delete, setData
 * and multi-operation transaction (one each), synchronous or not, successful or not (a
 * failed write is still a transaction that the ensemble agrees on), as the client sends
 * it. Counting below Curator sees what Curator's tracer does not: the parent nodes that
 * {@code creatingParentContainersIfNeeded} creates inside one traced operation.
 */
final class ZooKeeperWrites implements ZookeeperFactory {

	private final LongAdder writes = new LongAdder();

	/**
	 * The write requests sent so far by every handle this factory made.
	 * @return the count
	 */
	long count() {
		return this.writes.sum();
	}

	@Override
	public ZooKeeperAdmin newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
			throws IOException {
		return new CountingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, null, this.writes);
	}

	@Override
	public ZooKeeperAdmin newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
			@Nullable ZKClientConfig clientConfig) throws IOException {
		return new CountingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, clientConfig, this.writes);
	}

	/**
	 * A ZooKeeper handle that counts its writes. It overrides the overloads that the
	 * others delegate to, so that each request counts once.
	 */
	private static final class CountingZooKeeper extends ZooKeeperAdmin {

		private final LongAdder writes;

		CountingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
				@Nullable ZKClientConfig clientConfig, LongAdder writes) throws IOException {
			super(connectString, sessionTimeout, watcher, canBeReadOnly,
					(clientConfig != null) ? clientConfig : new ZKClientConfig());
			this.writes = writes;
		}

		@Override
		public String create(String path, byte[] data, List<ACL> acl, CreateMode createMode)
				throws KeeperException, InterruptedException {
			this.writes.increment();
			return super.create(path, data, acl, createMode);
		}

		@Override
		public String create(String path, byte[] data, List<ACL> acl, CreateMode createMode, Stat stat, long ttl)
				throws KeeperException, InterruptedException {
			this.writes.increment();
			return super.create(path, data, acl, createMode, stat, ttl);
		}

		@Override
		public void create(String path, byte[] data, List<ACL> acl, CreateMode createMode,
				AsyncCallback.StringCallback callback, Object context) {
			this.writes.increment();
			super.create(path, data, acl, createMode, callback, context);
		}

		@Override
		public void create(String path, byte[] data, List<ACL> acl, CreateMode createMode,
				AsyncCallback.Create2Callback callback, Object context, long ttl) {
			this.writes.increment();
			super.create(path, data, acl, createMode, callback, context, ttl);
		}

		@Override
		public void delete(String path, int version) throws InterruptedException, KeeperException {
			this.writes.increment();
			super.delete(path, version);
		}

		@Override
		public void delete(String path, int version, AsyncCallback.VoidCallback callback, Object context) {
			this.writes.increment();
			super.delete(path, version, callback, context);
		}

		@Override
		public Stat setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
			this.writes.increment();
			return super.setData(path, data, version);
		}

		@Override
		public void setData(String path, byte[] data, int version, AsyncCallback.StatCallback callback,
				Object context) {
			this.writes.increment();
			super.setData(path, data, version, callback, context);
		}

		@Override
		protected List<OpResult> multiInternal(MultiOperationRecord request)
				throws InterruptedException, KeeperException {
			countTransaction(request);
			return super.multiInternal(request);
		}

		@Override
		protected void multiInternal(MultiOperationRecord request, AsyncCallback.MultiCallback callback,
				Object context) {
			countTransaction(request);
			super.multiInternal(request, callback, context);
		}

		private void countTransaction(MultiOperationRecord request) {
			if (request.getOpKind() == Op.OpKind.TRANSACTION) {
				this.writes.increment();
			}
		}

	}

}
