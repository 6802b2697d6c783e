package dev.zklock.scheduling;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZKUtil;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The records of the {@link dev.zklock.ClusteredJob}s: one persistent node per job under
 * a root path of their own, created with the client's ACL. Every write of a record that
 * exists is conditional on the version read before, so that of two instances that claim
 * the same scheduled time, one fails.
 * <p>
 * A {@link #guardRoot() guarded} root is kept in the hands of the client's credentials,
 * as the lock root is: it always has a child, {@code ~guard}, so that nobody can delete
 * it and create it again open to all, and before the first record is read its ACL is
 * checked to be the one this client gives the nodes it creates (read from a short-lived
 * probe node). A root that somebody else made is refused: whoever made it could write
 * records that mark times as run, or keep the jobs from claiming them.
 */
public final class JobRecords {

	/** The name of the root's guard node; no job's name starts with {@code ~}. */
	private static final String GUARD_NODE = "~guard";

	private static final String PROBE_PREFIX = "~probe-";

	private final CuratorFramework client;

	private final String rootPath;

	private volatile boolean guarded;

	/** Whether the guarded root was created and its ACL checked. */
	private volatile boolean verified;

	/**
	 * Creates the records of the jobs under a root path.
	 * @param client the Curator client; started by its owner
	 * @param rootPath the ZooKeeper path under which the job nodes live, such as
	 * {@code /scheduled-jobs}
	 * @throws IllegalArgumentException if the root path is not a valid ZooKeeper path or
	 * is {@code /}
	 */
	public JobRecords(CuratorFramework client, String rootPath) {
		PathUtils.validatePath(rootPath);
		if ("/".equals(rootPath)) {
			throw new IllegalArgumentException("The root path of the job records must not be '/'");
		}
		this.client = client;
		this.rootPath = rootPath;
	}

	/**
	 * The ZooKeeper path under which the job nodes live.
	 * @return the root path
	 */
	public String getRootPath() {
		return this.rootPath;
	}

	/**
	 * Guards the root: before the first record is read, the root and its guard node are
	 * created if need be, and the root's ACL is checked.
	 */
	public void guardRoot() {
		this.guarded = true;
	}

	/**
	 * Creates the guarded root if need be and checks its ACL now, if {@link #guardRoot}
	 * was called and the client is connected; otherwise the first read of a record does
	 * it. The check is made once: afterwards nobody without the credentials can change
	 * the root.
	 * @throws IllegalStateException if the root's ACL is not the one this client gives
	 * the nodes it creates, naming the ACL found, or ZooKeeper fails
	 */
	public void checkRoot() {
		if (this.client.getZookeeperClient().isConnected()) {
			verifyRoot();
		}
	}

	private void verifyRoot() {
		if (this.guarded && !this.verified) {
			synchronized (this) {
				verifyRootOnce();
			}
		}
	}

	private void verifyRootOnce() {
		if (this.verified) {
			return;
		}
		try {
			String probe;
			try {
				try {
					this.client.create().creatingParentsIfNeeded().forPath(ZKPaths.makePath(this.rootPath, GUARD_NODE));
				}
				catch (KeeperException.NodeExistsException ex) {
					// guarded already
				}
				probe = this.client.create()
					.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
					.forPath(ZKPaths.makePath(this.rootPath, PROBE_PREFIX));
			}
			catch (KeeperException.NoAuthException ex) {
				throw squatted(", which does not let this client create nodes in it");
			}
			try {
				List<ACL> ours = this.client.getACL().forPath(probe);
				if (!Set.copyOf(this.client.getACL().forPath(this.rootPath)).equals(Set.copyOf(ours))) {
					throw squatted(", not the ACL " + describe(ours) + " that this client gives the nodes it creates");
				}
			}
			finally {
				this.client.delete().quietly().guaranteed().inBackground().forPath(probe);
			}
		}
		catch (JobRecordsException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw failure("check the root of the job records, " + this.rootPath, ex);
		}
		this.verified = true;
	}

	private JobRecordsException squatted(String problem) throws Exception {
		String acl;
		try {
			acl = "the ACL " + describe(this.client.getACL().forPath(this.rootPath));
		}
		catch (KeeperException.NoAuthException ex) {
			acl = "an ACL that this client may not even read";
		}
		return new JobRecordsException("The root of the job records " + this.rootPath + " has " + acl + problem
				+ ": a client without the credentials created or changed it, and could mark times as run or keep "
				+ "the jobs from running. Delete the node with the credentials (or an administrator's), or set "
				+ "distributed-lock.scheduling.root-path to a path of the application's own (see the reference "
				+ "guide's Security chapter)", null);
	}

	private static String describe(List<ACL> acl) {
		return acl.stream()
			.map((entry) -> entry.getId().getScheme() + ":" + entry.getId().getId() + ":"
					+ ZKUtil.getPermString(entry.getPerms()))
			.collect(Collectors.joining(", ", "[", "]"));
	}

	/**
	 * The ZooKeeper node of a job's record.
	 * @param job the job's name
	 * @return the node's path
	 */
	public String pathOf(String job) {
		return ZKPaths.makePath(this.rootPath, job);
	}

	/**
	 * The last run of a job, as its record says.
	 * @param job the job's name
	 * @return the record, or {@code null} if the job never ran (or its node holds no
	 * record)
	 * @throws IllegalStateException if ZooKeeper cannot be read
	 */
	public @Nullable JobRecord read(String job) {
		Versioned versioned = readVersioned(job);
		return (versioned != null) ? versioned.record() : null;
	}

	@Nullable Versioned readVersioned(String job) {
		verifyRoot();
		Stat stat = new Stat();
		try {
			byte[] data = this.client.getData().storingStatIn(stat).forPath(pathOf(job));
			return new Versioned(JobRecord.fromBytes(job, data), stat.getVersion());
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		catch (Exception ex) {
			throw failure("read the record of job '" + job + "'", ex);
		}
	}

	/**
	 * Writes a claim over the record read before: creates the node if there was none,
	 * else sets its data if its version is still the one read.
	 * @return the node's new version, or -1 if somebody else wrote it first
	 */
	int claim(JobRecord claim, @Nullable Versioned current) {
		String path = pathOf(claim.job());
		try {
			if (current == null) {
				this.client.create().creatingParentsIfNeeded().forPath(path, claim.toBytes());
				return 0;
			}
			return this.client.setData().withVersion(current.version()).forPath(path, claim.toBytes()).getVersion();
		}
		catch (KeeperException.NodeExistsException | KeeperException.BadVersionException
				| KeeperException.NoNodeException ex) {
			return -1;
		}
		catch (Exception ex) {
			throw failure("claim scheduled time " + claim.scheduledTime() + " of job '" + claim.job() + "'", ex);
		}
	}

	/**
	 * Writes a run's end over its claim, if the node still has the claim's version.
	 * @return whether it did
	 */
	boolean end(JobRecord ended, int version) {
		try {
			this.client.setData().withVersion(version).forPath(pathOf(ended.job()), ended.toBytes());
			return true;
		}
		catch (KeeperException.BadVersionException | KeeperException.NoNodeException ex) {
			return false;
		}
		catch (Exception ex) {
			throw failure("record the end of job '" + ended.job() + "'", ex);
		}
	}

	private static JobRecordsException failure(String what, Exception ex) {
		if (ex instanceof InterruptedException) {
			Thread.currentThread().interrupt();
		}
		return new JobRecordsException("Could not " + what + ": " + ex, ex);
	}

	/**
	 * A record as read, with the version of its node.
	 *
	 * @param record the record, or {@code null} if the node holds none
	 * @param version the node's data version
	 */
	record Versioned(@Nullable JobRecord record, int version) {

	}

}
