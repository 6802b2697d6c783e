package dev.zklock.scheduling;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The records of the {@link dev.zklock.ClusteredJob}s: one persistent node per job under
 * a root path of their own, created with the client's ACL. Every write of a record that
 * exists is conditional on the version read before, so that of two instances that claim
 * the same scheduled time, one fails.
 */
public final class JobRecords {

	private final CuratorFramework client;

	private final String rootPath;

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
