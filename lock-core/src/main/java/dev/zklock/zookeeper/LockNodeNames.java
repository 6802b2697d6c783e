package dev.zklock.zookeeper;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.apache.zookeeper.common.PathUtils;

/**
 * Maps lock keys to ZooKeeper node names. Keys are data, not paths: every key maps to a
 * single valid node name that lives directly under the root path.
 * <p>
 * ASCII letters, digits and {@code - _ . :} stay as they are; every other character is
 * percent-encoded from its UTF-8 bytes ({@code /} becomes {@code %2F}; an unpaired
 * surrogate becomes {@code %u} and four hex digits), and names that would read {@code .}
 * or {@code ..} have their dots encoded. Distinct keys therefore get distinct names.
 * Names longer than {@value #MAX_READABLE_LENGTH} characters keep a readable prefix and
 * end in {@code ~} and the SHA-256 of the full encoded name; {@code ~} never appears in
 * an unhashed name.
 */
final class LockNodeNames {

	static final int MAX_READABLE_LENGTH = 160;

	private static final int HASHED_PREFIX_LENGTH = 64;

	private static final HexFormat HEX = HexFormat.of().withUpperCase();

	private LockNodeNames() {
	}

	/**
	 * Checks a root path for lock nodes.
	 * @param rootPath the root path
	 * @return the root path
	 * @throws IllegalArgumentException if it is not a valid ZooKeeper path, or is the
	 * ZooKeeper root
	 */
	static String validRootPath(String rootPath) {
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

}
