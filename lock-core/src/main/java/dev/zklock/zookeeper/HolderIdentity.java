package dev.zklock.zookeeper;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Who holds a lock node, stored as the node's data so that operators, and contenders that
 * time out, can tell: the application's name, the host, the process id and the thread.
 * Nothing else is stored; each value is cut to {@value #MAX_VALUE_LENGTH} characters.
 *
 * @param application the application's name, or {@code null} if it has none
 * @param host the host's name
 * @param pid the process id
 * @param thread the name of the thread that asked for the lock, or {@code null} for a
 * lock that belongs to no thread
 */
public record HolderIdentity(@Nullable String application, String host, long pid, @Nullable String thread) {

	static final int MAX_VALUE_LENGTH = 100;

	private static final String LOCAL_HOST = localHostName();

	/**
	 * The holder that this process and the calling thread would be, or this process alone
	 * for a lock not {@code owned} by the thread.
	 */
	static HolderIdentity current(@Nullable String application, boolean owned) {
		return new HolderIdentity(application, LOCAL_HOST, ProcessHandle.current().pid(),
				owned ? Thread.currentThread().getName() : null);
	}

	byte[] toBytes() {
		Map<String, String> fields = new LinkedHashMap<>();
		if (this.application != null) {
			fields.put("application", this.application);
		}
		fields.put("host", this.host);
		fields.put("pid", Long.toString(this.pid));
		if (this.thread != null) {
			fields.put("thread", this.thread);
		}
		StringBuilder data = new StringBuilder();
		fields.forEach((name, value) -> data.append(name).append('=').append(clean(value)).append('\n'));
		return data.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Reads a holder from a lock node's data; {@code null} if the data describes none
	 * (nodes of other clients).
	 */
	static @Nullable HolderIdentity fromBytes(byte @Nullable [] data) {
		if (data == null) {
			return null;
		}
		Map<String, String> fields = new LinkedHashMap<>();
		for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
			int separator = line.indexOf('=');
			if (separator > 0) {
				fields.put(line.substring(0, separator), line.substring(separator + 1));
			}
		}
		if (!fields.containsKey("host") || !fields.containsKey("pid")) {
			return null;
		}
		try {
			return new HolderIdentity(fields.get("application"), fields.get("host"), Long.parseLong(fields.get("pid")),
					fields.get("thread"));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static String clean(String value) {
		String oneLine = value.replace('\n', ' ').replace('\r', ' ');
		return (oneLine.length() > MAX_VALUE_LENGTH) ? oneLine.substring(0, MAX_VALUE_LENGTH) : oneLine;
	}

	private static String localHostName() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "unknown";
		}
	}

	@Override
	public String toString() {
		return ((this.application != null) ? "application '" + this.application + "', " : "") + "host " + this.host
				+ ", pid " + this.pid + ((this.thread != null) ? ", thread '" + this.thread + "'" : "");
	}

}
