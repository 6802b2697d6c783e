package dev.zklock.zookeeper;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.ACL;

/**
 * The root path under which a registry's lock nodes live, with the registry's Curator
 * client: the node of each key under it, the guard that keeps it in the hands of the
 * registry's credentials, and how long a request sent under it waits for ZooKeeper's
 * reply.
 * <p>
 * <b>Node names.</b> Keys are data, not paths: every key maps to a single valid node name
 * that lives directly under the root path. ASCII letters, digits and {@code - _ . :} stay
 * as they are; every other character is percent-encoded from its UTF-8 bytes ({@code /}
 * becomes {@code %2F}; an unpaired surrogate becomes {@code %u} and four hex digits), and
 * names that would read {@code .} or {@code ..} have their dots encoded. Distinct keys
 * therefore get distinct names. Names longer than {@value #MAX_READABLE_LENGTH}
 * characters keep a readable prefix and end in {@code ~} and the SHA-256 of the full
 * encoded name; {@code ~} never appears in an unhashed name.
 * <p>
 * <b>Key nodes.</b> The root remembers which keys' nodes it saw exist, the
 * {@value #KNOWN_KEY_NODES} most recently used, so that the first lock of a key whose
 * node is missing creates it with the lock node in one transaction, and the lock of a key
 * whose node exists queues in it at once. What it remembers only chooses the request sent
 * first: a key's node reaped meanwhile, or created by another process, costs one more
 * round trip.
 * <p>
 * <b>The guard.</b> An empty node can be deleted by anybody allowed to delete the
 * children of its parent, and a container node is deleted by ZooKeeper itself once it is
 * empty: a stranger could then create the root again, open to all, and read the key names
 * or block keys under it. So a guarded root is a persistent node that always has a child,
 * {@value #GUARD_NODE}, which only a client allowed to delete in the root can remove:
 * nobody else can delete or replace the root. Before it locks anything, the registry
 * checks once that the root carries the ACL that this client gives the nodes it creates
 * (all its identities: digest credentials, a TLS certificate), as read from a short-lived
 * probe node, and refuses to lock under a root that somebody else made.
 * <p>
 * <b>Replies.</b> Requests go to ZooKeeper in the background, and their replies are
 * waited for by a deadline (see {@link #awaitReply}): Curator retries an operation that
 * lost its connection for as long as its retry policy allows, and a frozen server leaves
 * a client connected for two thirds of its session timeout, both far longer than a lock's
 * wait time, and the wait for it ends anyway. Waiting on replies, rather than on
 * Curator's blocking calls, needs no interrupt to cut a wait short: the caller's own
 * interrupts stay the caller's. Curator goes on with a request whose reply is no longer
 * waited for; the caller cleans up after it (a node created too late is deleted).
 */
final class LockRoot {

	/** The name of the root's guard node; no key's node name starts with {@code ~}. */
	static final String GUARD_NODE = "~guard";

	/** The longest node name that is the key's encoding alone, with no hash. */
	static final int MAX_READABLE_LENGTH = 160;

	/**
	 * How long past its deadline an acquisition waits for ZooKeeper's reply to a request
	 * already on its way, and for the description of who holds the lock: the one slack of
	 * the wait time.
	 */
	static final Duration GRACE = Duration.ofMillis(500);

	/** How many keys' nodes the root remembers to exist, the most recently used. */
	static final int KNOWN_KEY_NODES = 2048;

	private static final int HASHED_PREFIX_LENGTH = 64;

	private static final HexFormat HEX = HexFormat.of().withUpperCase();

	private static final String PROBE_PREFIX = "~probe-";

	private static final int[] PERMISSIONS = { ZooDefs.Perms.CREATE, ZooDefs.Perms.DELETE, ZooDefs.Perms.READ,
			ZooDefs.Perms.WRITE, ZooDefs.Perms.ADMIN };

	private static final String PERMISSION_LETTERS = "cdrwa";

	private static final Logger logger = LoggerFactory.getLogger(LockRoot.class);

	private final CuratorFramework client;

	private final String path;

	private volatile boolean guarded;

	private volatile boolean verified;

	/** The paths of key nodes seen to exist, in the order of their last use. */
	private final Map<String, Boolean> knownKeyNodes = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
			return size() > KNOWN_KEY_NODES;
		}

	};

	LockRoot(CuratorFramework client, String path) {
		this.client = client;
		this.path = validPath(path);
	}

	/**
	 * Checks a root path for lock nodes: a valid ZooKeeper path, other than the ZooKeeper
	 * root.
	 */
	static String validPath(String rootPath) {
		if (rootPath == null) {
			throw new IllegalArgumentException("Lock root path must not be null");
		}
		try {
			PathUtils.validatePath(rootPath);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					"Lock root path '" + rootPath + "' is not a valid ZooKeeper path: " + ex.getMessage(), ex);
		}
		if (rootPath.equals("/")) {
			throw new IllegalArgumentException("Lock root path must name a node such as '/locks', not '/'");
		}
		return rootPath;
	}

	CuratorFramework client() {
		return this.client;
	}

	String path() {
		return this.path;
	}

	/** The path of a key's node, directly under the root path. */
	String pathOf(String key) {
		if (key == null || key.isEmpty()) {
			throw new IllegalArgumentException("Lock key must not be empty");
		}
		// a node name never holds '/', and the root path is valid and not '/'
		return this.path + '/' + nodeName(key);
	}

	static String nodeName(String key) {
		String encoded = encode(key);
		if (encoded.equals(".") || encoded.equals("..")) {
			return encoded.replace(".", "%2E");
		}
		if (encoded.length() > MAX_READABLE_LENGTH) {
			return encoded.substring(0, HASHED_PREFIX_LENGTH) + "~" + sha256(encoded);
		}
		return encoded;
	}

	private static String encode(String key) {
		int literal = 0;
		while (literal < key.length() && isLiteral(key.charAt(literal))) {
			literal++;
		}
		if (literal == key.length()) {
			return key;
		}
		StringBuilder name = new StringBuilder(key.length() + 8).append(key, 0, literal);
		int i = literal;
		while (i < key.length()) {
			char c = key.charAt(i);
			if (isLiteral(c)) {
				name.append(c);
				i++;
			}
			else if (Character.isSurrogate(c) && !Character.isSurrogatePair(c, charAt(key, i + 1))) {
				name.append("%u").append(HEX.toHexDigits(c));
				i++;
			}
			else {
				int codePoint = key.codePointAt(i);
				for (byte b : Character.toString(codePoint).getBytes(StandardCharsets.UTF_8)) {
					name.append('%').append(HEX.toHexDigits(b));
				}
				i += Character.charCount(codePoint);
			}
		}
		return name.toString();
	}

	private static char charAt(String key, int index) {
		return (index < key.length()) ? key.charAt(index) : 0;
	}

	private static boolean isLiteral(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
				|| c == '.' || c == ':';
	}

	private static String sha256(String name) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			return HEX.formatHex(digest.digest(name.getBytes(StandardCharsets.UTF_8))).toLowerCase();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
	}

	/**
	 * Whether a key's node was seen to exist, among the {@value #KNOWN_KEY_NODES} most
	 * recently used: it may have been reaped since.
	 */
	boolean isKeyNodeKnown(String keyPath) {
		synchronized (this.knownKeyNodes) {
			return this.knownKeyNodes.get(keyPath) != null;
		}
	}

	/** Remembers that a key's node exists: a lock node was created in it. */
	void keyNodeExists(String keyPath) {
		synchronized (this.knownKeyNodes) {
			this.knownKeyNodes.put(keyPath, Boolean.TRUE);
		}
	}

	/** Guards the root: it is created and checked before the first lock. */
	void guard() {
		this.verified = false;
		this.guarded = true;
	}

	/**
	 * Creates the guarded root if need be and checks its ACL now, if the root is guarded,
	 * within the client's connection timeout (and the {@link #GRACE grace} of a reply);
	 * any failure is an {@link IllegalStateException}.
	 */
	void check() {
		if (!this.guarded) {
			return;
		}
		int connectionTimeout = this.client.getZookeeperClient().getConnectionTimeoutMs();
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectionTimeout);
		try {
			if (!this.client.blockUntilConnected(connectionTimeout, TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("Could not check the lock root " + this.path
						+ ": no connection to ZooKeeper (" + connectString() + ") within " + connectionTimeout + "ms");
			}
			verify(deadline);
		}
		catch (IllegalStateException ex) {
			throw ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while checking the lock root " + this.path, ex);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("Could not check the lock root " + this.path + ": ZooKeeper ("
					+ connectString() + ") did not answer within " + connectionTimeout + "ms", ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not check the lock root " + this.path + ": " + ex, ex);
		}
	}

	/**
	 * Creates the guarded root and its guard node if need be, and checks the root's ACL,
	 * unless the root is not guarded or that was done already; before an acquisition
	 * queues its first node. A root whose ACL is not the one this client gives the nodes
	 * it creates is an {@link IllegalStateException}.
	 */
	void verify(long deadline) throws Exception {
		if (!this.guarded || this.verified) {
			return;
		}
		createGuard(deadline);
		String probe = createProbe(deadline);
		try {
			List<ACL> ours = aclOf(probe, deadline);
			List<ACL> found = aclOf(this.path, deadline);
			if (!Set.copyOf(found).equals(Set.copyOf(ours))) {
				throw new IllegalStateException("The lock root " + this.path + " has the ACL " + describe(found)
						+ ", not the ACL " + describe(ours) + " that this client gives the nodes it creates: a "
						+ "client without the credentials created or changed it, and could read the key names or "
						+ "block keys under it. Delete the node with the credentials (or an administrator's), and "
						+ "keep its parent from other clients (see the reference guide's Security chapter)");
			}
		}
		finally {
			deleteProbe(probe);
		}
		this.verified = true;
	}

	private void createGuard(long deadline) throws Exception {
		String guardPath = ZKPaths.makePath(this.path, GUARD_NODE);
		CompletableFuture<CuratorEvent> reply = new CompletableFuture<>();
		this.client.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.PERSISTENT)
			.inBackground((client, event) -> reply.complete(event))
			.forPath(guardPath);
		KeeperException.Code result = KeeperException.Code.get(awaitReply(reply, deadline).getResultCode());
		// NODEEXISTS: guarded already
		if (result == KeeperException.Code.NOAUTH) {
			throw noCreateRight(deadline);
		}
		if (result != KeeperException.Code.OK && result != KeeperException.Code.NODEEXISTS) {
			throw KeeperException.create(result, guardPath);
		}
	}

	/** Creates the probe node; one created too late is deleted in the background. */
	private String createProbe(long deadline) throws Exception {
		CompletableFuture<CuratorEvent> reply = new CompletableFuture<>();
		this.client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground((client, event) -> reply.complete(event))
			.forPath(ZKPaths.makePath(this.path, PROBE_PREFIX));
		CuratorEvent created;
		try {
			created = awaitReply(reply, deadline);
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
			throw noCreateRight(deadline);
		}
		if (result != KeeperException.Code.OK) {
			throw KeeperException.create(result, this.path);
		}
		return created.getName();
	}

	private IllegalStateException noCreateRight(long deadline) throws Exception {
		return new IllegalStateException(
				"The lock root " + this.path + " has the ACL " + describe(aclOf(this.path, deadline))
						+ ", which does not let this client create nodes in it: somebody else created or changed it");
	}

	private List<ACL> aclOf(String path, long deadline) throws Exception {
		CompletableFuture<CuratorEvent> reply = new CompletableFuture<>();
		this.client.getACL().inBackground((client, event) -> reply.complete(event)).forPath(path);
		CuratorEvent read = awaitReply(reply, deadline);
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
	 * Waits for the reply to a request sent in the background, until the deadline plus
	 * {@link #GRACE}: the wait time bounds ZooKeeper's work too, so that a ZooKeeper that
	 * is slow, or frozen while the client still believes itself connected, is answered
	 * within the caller's time, with a {@link TimeoutException}.
	 */
	<T> T awaitReply(CompletableFuture<T> reply, long deadline) throws TimeoutException, InterruptedException {
		try {
			return reply.get(Math.max(0, deadline + GRACE.toNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new TimeoutException("ZooKeeper did not reply in time");
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("A reply of ZooKeeper failed", ex.getCause());
		}
	}

	String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

}
