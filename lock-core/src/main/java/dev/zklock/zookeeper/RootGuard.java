package dev.zklock.zookeeper;

import java.util.List;
import java.util.Set;

import org.apache.curator.framework.CuratorFramework;
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

	private final CuratorFramework client;

	private final String rootPath;

	private volatile boolean verified;

	RootGuard(CuratorFramework client, String rootPath) {
		this.client = client;
		this.rootPath = rootPath;
	}

	/**
	 * Creates the root and its guard node if need be, and checks the root's ACL, unless
	 * that was done already.
	 * @throws IllegalStateException if the root's ACL is not the one this client gives
	 * the nodes it creates
	 * @throws Exception if ZooKeeper fails
	 */
	void verify() throws Exception {
		if (this.verified) {
			return;
		}
		String probe;
		try {
			createGuard();
			probe = this.client.create()
				.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.forPath(ZKPaths.makePath(this.rootPath, PROBE_PREFIX));
		}
		catch (KeeperException.NoAuthException ex) {
			throw new IllegalStateException("The lock root " + this.rootPath + " has the ACL "
					+ describe(this.client.getACL().forPath(this.rootPath))
					+ ", which does not let this client create nodes in it: somebody else created or changed it");
		}
		try {
			List<ACL> ours = this.client.getACL().forPath(probe);
			List<ACL> found = this.client.getACL().forPath(this.rootPath);
			if (!Set.copyOf(found).equals(Set.copyOf(ours))) {
				throw new IllegalStateException("The lock root " + this.rootPath + " has the ACL " + describe(found)
						+ ", not the ACL " + describe(ours) + " that this client gives the nodes it creates: a "
						+ "client without the credentials created or changed it, and could read the key names or "
						+ "block keys under it. Delete the node with the credentials (or an administrator's), and "
						+ "keep its parent from other clients (see README)");
			}
		}
		finally {
			this.client.delete().quietly().guaranteed().inBackground().forPath(probe);
		}
		this.verified = true;
	}

	private void createGuard() throws Exception {
		try {
			this.client.create()
				.creatingParentsIfNeeded()
				.withMode(CreateMode.PERSISTENT)
				.forPath(ZKPaths.makePath(this.rootPath, GUARD_NODE));
		}
		catch (KeeperException.NodeExistsException ex) {
			// guarded already
		}
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

}
