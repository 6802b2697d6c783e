package dev.zklock.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks mutual exclusion from inside the critical sections, across threads and JVMs: a
 * memory-mapped file that every worker of a run maps holds, for each key, the current
 * owner and a counter. Entering claims the owner slot with a compare-and-set and bumps
 * the counter with a plain read and write; a second holder inside at the same time shows
 * up as an overlap, and lost counter updates as a counter below the number of
 * acquisitions. The file holds 16 bytes a key and 8 more, 16,008 bytes for 1,000 keys;
 * since a mapped buffer and its offsets are {@code int}s, a probe maps at most
 * 134,217,727 keys, and {@link FileChannel#map} refuses more.
 */
final class ExclusionProbe {

	private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

	private static final int OVERLAPS = 0;

	private final MappedByteBuffer slots;

	private final int keys;

	private ExclusionProbe(MappedByteBuffer slots, int keys) {
		this.slots = slots;
		this.keys = keys;
	}

	/**
	 * Maps the probe file of a run, creating it zeroed when it does not exist.
	 * @param file the file that all workers of the run share
	 * @param keys the number of keys of the run
	 * @return the probe
	 */
	static ExclusionProbe map(Path file, int keys) {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
				StandardOpenOption.WRITE)) {
			return new ExclusionProbe(channel.map(FileChannel.MapMode.READ_WRITE, 0, Long.BYTES * (1 + 2L * keys)),
					keys);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot map " + file, ex);
		}
	}

	/**
	 * Marks the caller as inside the critical section of a key.
	 * @param key the key's index
	 * @param owner a non-zero number unique to the calling thread in the run
	 */
	void enter(int key, long owner) {
		if (!LONGS.compareAndSet(this.slots, ownerOffset(key), 0L, owner)) {
			overlap();
		}
		int counter = ownerOffset(key) + Long.BYTES;
		LONGS.setVolatile(this.slots, counter, (long) LONGS.getVolatile(this.slots, counter) + 1);
	}

	/**
	 * Marks the caller as leaving the critical section of a key.
	 * @param key the key's index
	 * @param owner the number given to {@link #enter(int, long)}
	 */
	void exit(int key, long owner) {
		if (!LONGS.compareAndSet(this.slots, ownerOffset(key), owner, 0L)) {
			overlap();
		}
	}

	private void overlap() {
		LONGS.getAndAdd(this.slots, OVERLAPS, 1L);
	}

	/**
	 * How many times a holder found another inside, in any key.
	 * @return the overlaps seen
	 */
	long overlaps() {
		return (long) LONGS.getVolatile(this.slots, OVERLAPS);
	}

	/**
	 * The sum of every key's counter: the acquisitions when exclusion held.
	 * @return the counted entries
	 */
	long counted() {
		long sum = 0;
		for (int key = 0; key < this.keys; key++) {
			sum += counted(key);
		}
		return sum;
	}

	/**
	 * One key's counter: the key's acquisitions when exclusion held.
	 * @param key the key's index
	 * @return the counted entries of the key
	 */
	long counted(int key) {
		return (long) LONGS.getVolatile(this.slots, ownerOffset(key) + Long.BYTES);
	}

	private static int ownerOffset(int key) {
		return Long.BYTES * (1 + 2 * key);
	}

}
