package dev.zklock.zookeeper;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.zklock.LockType;
import org.jspecify.annotations.Nullable;

/**
 * What a node in a {@link LockQueue} asks for, which decides when its turn comes. The
 * kind is part of the node's name, so every contender can tell what the nodes ahead of it
 * ask for from one listing of the queue.
 */
sealed interface LockNodeKind {

	/** Alone: its turn comes when it is first in the queue. */
	LockNodeKind EXCLUSIVE = new ReadWrite("lock-", false);

	/**
	 * Together with other shared nodes: its turn comes when no exclusive node is ahead.
	 */
	LockNodeKind SHARED = new ReadWrite("read-", true);

	/** The digits of the sequence number ZooKeeper appends to every node's name. */
	int SEQUENCE_LENGTH = 10;

	/**
	 * One of a number of permits: its turn comes when fewer than that many nodes are
	 * ahead.
	 */
	static LockNodeKind permit(int permits) {
		return new Permit(permits);
	}

	/** The kind of node that a lock type asks for; permits apply to semaphores only. */
	static LockNodeKind of(LockType type, int permits) {
		if (type == null) {
			throw new IllegalArgumentException("'type' must not be null");
		}
		if (permits != 1 && type != LockType.SEMAPHORE) {
			throw new IllegalArgumentException(
					"Permits apply to semaphores only, but were " + permits + " for a " + type + " lock");
		}
		return switch (type) {
			case EXCLUSIVE, WRITE -> LockNodeKind.EXCLUSIVE;
			case READ -> LockNodeKind.SHARED;
			case SEMAPHORE -> {
				if (permits < 1) {
					throw new IllegalArgumentException("Permits must be at least 1, but were " + permits);
				}
				yield LockNodeKind.permit(permits);
			}
		};
	}

	/** The start of the name of a node of this kind; ZooKeeper appends the sequence. */
	String namePrefix();

	/**
	 * The name of the node that a node of this kind, at a position of the queue (in
	 * sequence order), waits for, or {@code null} if its turn has come; a
	 * {@link ConflictException} if nodes of the queue ask for something that cannot be
	 * combined with this kind.
	 */
	@Nullable String blockerOf(List<String> queue, int position) throws ConflictException;

	/**
	 * Whether a waiting node of this kind may get its turn when any node ahead leaves,
	 * not only the one {@link #blockerOf} names, so it must watch the whole queue.
	 */
	default boolean waitsForAnyDeparture() {
		return false;
	}

	/**
	 * The kind of a node, read from its name. Names of no known kind, such as those of
	 * other recipes, count as exclusive.
	 */
	static LockNodeKind ofNodeName(String nodeName) {
		Matcher matcher = Permit.NAME.matcher(nodeName);
		if (matcher.find()) {
			return new Permit(Integer.parseInt(matcher.group(1)));
		}
		return nodeName.regionMatches(nodeName.length() - SEQUENCE_LENGTH - SHARED.namePrefix().length(),
				SHARED.namePrefix(), 0, SHARED.namePrefix().length()) ? SHARED : EXCLUSIVE;
	}

	/**
	 * An exclusive or a shared node: it waits for the nearest node ahead that it cannot
	 * share the lock with, and cannot be combined with permit nodes.
	 */
	record ReadWrite(String namePrefix, boolean shared) implements LockNodeKind {

		@Override
		public @Nullable String blockerOf(List<String> queue, int position) throws ConflictException {
			for (String name : queue) {
				if (ofNodeName(name) instanceof Permit permit) {
					throw new ConflictException(this, permit);
				}
			}
			for (int ahead = position - 1; ahead >= 0; ahead--) {
				if (!this.shared || ofNodeName(queue.get(ahead)) == EXCLUSIVE) {
					return queue.get(ahead);
				}
			}
			return null;
		}

		@Override
		public String toString() {
			return this.shared ? "a read lock" : "an exclusive lock";
		}

	}

	/** A node that holds one of the key's {@code permits}. */
	record Permit(int permits) implements LockNodeKind {

		private static final Pattern NAME = Pattern.compile("-permits-(\\d+)-\\d{" + SEQUENCE_LENGTH + "}$");

		@Override
		public String namePrefix() {
			return "permits-" + this.permits + "-";
		}

		@Override
		public @Nullable String blockerOf(List<String> queue, int position) throws ConflictException {
			for (String name : queue) {
				LockNodeKind kind = ofNodeName(name);
				if (!equals(kind)) {
					throw new ConflictException(this, kind);
				}
			}
			return (position >= this.permits) ? queue.get(position - this.permits) : null;
		}

		@Override
		public boolean waitsForAnyDeparture() {
			return true;
		}

		@Override
		public String toString() {
			return "a semaphore of " + this.permits + " permits";
		}

	}

	/** Thrown when a queue holds nodes of kinds that cannot be combined. */
	final class ConflictException extends Exception {

		ConflictException(LockNodeKind asked, LockNodeKind found) {
			super("it is asked for as " + asked + " here, but other holders use it as " + found);
		}

	}

}
