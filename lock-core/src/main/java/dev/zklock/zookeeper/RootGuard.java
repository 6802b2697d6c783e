package dev.zklock.zookeeper;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * Keeps a registry's root path in the hands of the clients that hold its credentials.
 * <p>
 * An empty node can be deleted by anybody allowed to delete the children of its parent,
 * and a container node is deleted by ZooKeeper itself once it is empty: a stranger could
 * then create the root again, open to all, and read the key names or block keys under it.
 * So the root is a persistent node that always has a child, {@value #GUARD_NODE}, which
 * only a client allowed to delete in the root can remove: nobody else can delete or
 * replace the root. Before it locks anything, the guard checks once that the root carries
 * the ACL that this client gives the nodes it creates (all its identities: digest
 * credentials, a TLS certificate), as read from a short-lived probe node, and refuses to
 * lock under a root that somebody else made.
 */
final class RootGuard {

	/**
	 * The name of the root's guard node; no key's node name starts with {@code ~}.
	 */
	static final String GUARD_NODE = "~guard";

	private static final String PROBE_PREFIX = "~probe-";

	private static final int[] PERMISSIONS = { ZooDefs.Perms.CREATE, ZooDefs.Perms.DELETE, ZooDefs.Perms.READ,
			ZooDefs.Perms.WRITE, ZooDefs.Perms.ADMIN };

	private static final String PERMISSION_LETTERS = "cdrwa";

	private static final Logger logger = LoggerFactory.getLogger(RootGuard.class);

	private final CuratorFramework client;

	private final String rootPath;

	private volatile boolean verified;

	RootGuard(CuratorFramework client, String rootPath) {
		this.client = client;
		this.rootPath = rootPath;
	}

	/**
	 * Creates the root and its guard node if need be, and checks the root's ACL, unless
	 * that was done already. The requests go in the background, and their replies are
	 * waited for within the acquisition's {@link ReplyWait}.
	 * @param replies how long to wait for ZooKeeper's replies
	 * @throws IllegalStateException if the root's ACL is not the one this client gives
	 * the nodes it creates
	 * @throws TimeoutException if ZooKeeper did not reply in time
	 * @throws Exception if ZooKeeper fails, or the thread is interrupted
	 */
	void verify(ReplyWait replies) throws Exception {
		if (this.verified) {
			return;
		}
		createGuard(replies);
		String probe = createProbe(replies);
		try {
			List<ACL> ours = aclOf(probe, replies);
			List<ACL> found = aclOf(this.rootPath, replies);
			if (!Set.copyOf(found).equals(Set.copyOf(ours))) {
				throw new IllegalStateException("The lock root " + this.rootPath + " has the ACL " + describe(found)
						+ ", not the ACL " + describe(ours) + " that this client gives the nodes it creates: a "
						+ "client without the credentials created or changed it, and could read the key names or "
						+ "block keys under it. Delete the node with the credentials (or an administrator's), and "
						+ "keep its parent from other clients (see README)");
			}
		}
		finally {
			deleteProbe(probe);
		}
		this.verified = true;
	}

	private void createGuard(ReplyWait replies) throws Exception {
		String guardPath = ZKPaths.makePath(this.rootPath, GUARD_NODE);
		CuratorEvent created = replies.await(send((callback) -> this.client.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.PERSISTENT)
			.inBackground(callback)
			.forPath(guardPath)));
		KeeperException.Code result = KeeperException.Code.get(created.getResultCode());
		// NODEEXISTS: guarded already
		if (result == KeeperException.Code.NOAUTH) {
			throw noCreateRight(replies);
		}
		if (result != KeeperException.Code.OK && result != KeeperException.Code.NODEEXISTS) {
			throw KeeperException.create(result, guardPath);
		}
	}

	/**
	 * Creates the probe node; one whose reply comes too late is deleted in the
	 * background.
	 */
	private String createProbe(ReplyWait replies) throws Exception {
		CompletableFuture<CuratorEvent> reply = send((callback) -> this.client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground(callback)
			.forPath(ZKPaths.makePath(this.rootPath, PROBE_PREFIX)));
		CuratorEvent created;
		try {
			created = replies.await(reply);
		}
		catch (Exception ex) {
			reply.thenAccept((late) -> {
				if (late.getResultCode() == KeeperException.Code.OK.intValue()) {
					deleteProbe(late.getName());
				}
			});
			throw ex;
		}
		KeeperException.Code result = KeeperException.Code.get(created.getResultCode());
		if (result == KeeperException.Code.NOAUTH) {
			throw noCreateRight(replies);
		}
		if (result != KeeperException.Code.OK) {
			throw KeeperException.create(result, this.rootPath);
		}
		return created.getName();
	}

	private IllegalStateException noCreateRight(ReplyWait replies) throws Exception {
		return new IllegalStateException(
				"The lock root " + this.rootPath + " has the ACL " + describe(aclOf(this.rootPath, replies))
						+ ", which does not let this client create nodes in it: somebody else created or changed it");
	}

	private List<ACL> aclOf(String path, ReplyWait replies) throws Exception {
		CuratorEvent read = replies
			.await(send((callback) -> this.client.getACL().inBackground(callback).forPath(path)));
		KeeperException.Code result = KeeperException.Code.get(read.getResultCode());
		if (result != KeeperException.Code.OK) {
			throw KeeperException.create(result, path);
		}
		return read.getACLList();
	}

	private void deleteProbe(String probe) {
		try {
			this.client.delete().quietly().guaranteed().inBackground().forPath(probe);
		}
		catch (Exception ex) {
			logger.warn("Could not start deleting the probe node {}; ZooKeeper deletes it when the session ends: {}",
					probe, ex.toString());
		}
	}

	private static CompletableFuture<CuratorEvent> send(Request request) throws Exception {
		CompletableFuture<CuratorEvent> reply = new CompletableFuture<>();
		request.send((client, event) -> reply.complete(event));
		return reply;
	}

	private static String describe(Iterable<ACL> acl) {
		StringBuilder description = new StringBuilder("[");
		for (ACL entry : acl) {
			if (description.length() > 1) {
				description.append(", ");
			}
			description.append(entry.getId().getScheme())
				.append(':')
				.append(entry.getId().getId())
				.append(':')
				.append(permissions(entry.getPerms()));
		}
		return description.append(']').toString();
	}

	private static String permissions(int perms) {
		StringBuilder letters = new StringBuilder();
		for (int i = 0; i < PERMISSIONS.length; i++) {
			if ((perms & PERMISSIONS[i]) != 0) {
				letters.append(PERMISSION_LETTERS.charAt(i));
			}
		}
		return letters.toString();
	}

	/**
	 * Sends one request in the background, with the callback that takes its reply.
	 */
	@FunctionalInterface
	private interface Request {

		void send(BackgroundCallback callback) throws Exception;

	}

}
