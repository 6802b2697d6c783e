package dev.zklock.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.LockTemplate;
import dev.zklock.LockType;
import dev.zklock.observation.DefaultLockObservationConvention;
import dev.zklock.observation.LockObservationContext;
import dev.zklock.zookeeper.LockActivity;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Knows the locks of the applications that {@link LockAssertions} check: the locks their
 * registries hold now, and the holds their templates start on a thread while it records
 * them (through the templates' observations).
 */
final class LockRecorder implements ObservationHandler<LockObservationContext> {

	static final LockRecorder INSTANCE = new LockRecorder();

	private final Set<ZooKeeperLockRegistry> registries = ConcurrentHashMap.newKeySet();

	/** The observation registries this handler was added to, guarded by itself. */
	private final Map<ObservationRegistry, Boolean> observed = new WeakHashMap<>();

	private final ThreadLocal<@Nullable List<RecordedHold>> recordings = new ThreadLocal<>();

	private LockRecorder() {
	}

	/**
	 * Records the holds that the template starts from now on: adds this handler to the
	 * template's observation registry, or gives the template one of its own if it
	 * observes nothing.
	 * @param template the template
	 */
	void observe(LockTemplate template) {
		ObservationRegistry registry = template.getObservationRegistry();
		if (registry == ObservationRegistry.NOOP) {
			registry = ObservationRegistry.create();
			template.setObservationRegistry(registry);
		}
		synchronized (this.observed) {
			if (this.observed.put(registry, Boolean.TRUE) == null) {
				registry.observationConfig().observationHandler(this);
			}
		}
	}

	boolean observesAnyTemplate() {
		synchronized (this.observed) {
			return !this.observed.isEmpty();
		}
	}

	void watch(ZooKeeperLockRegistry registry) {
		this.registries.add(registry);
	}

	void forget(ZooKeeperLockRegistry registry) {
		this.registries.remove(registry);
	}

	boolean watchesAnyRegistry() {
		return !this.registries.isEmpty();
	}

	/**
	 * The locks that the watched registries hold now for a thread.
	 * @param thread the thread
	 * @return the held locks
	 */
	List<LockActivity> heldBy(Thread thread) {
		String name = thread.getName();
		return this.registries.stream()
			.flatMap((registry) -> registry.heldLocks().stream())
			.filter((held) -> name.equals(held.thread()))
			.toList();
	}

	/**
	 * Runs a call, recording the holds that observed templates start on the calling
	 * thread meanwhile.
	 * @param <E> the type of the checked exceptions that the call throws
	 * @param call the call
	 * @return the recorded holds, in the order they started
	 * @throws E what the call throws
	 */
	<E extends Exception> List<RecordedHold> record(LockAssertions.CheckedCall<E> call) throws E {
		List<RecordedHold> outer = this.recordings.get();
		List<RecordedHold> recording = new ArrayList<>();
		this.recordings.set(recording);
		try {
			call.call();
		}
		finally {
			this.recordings.set(outer);
			if (outer != null) {
				outer.addAll(recording);
			}
		}
		return List.copyOf(recording);
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext;
	}

	@Override
	public void onStart(LockObservationContext context) {
		List<RecordedHold> recording = this.recordings.get();
		if (recording != null && DefaultLockObservationConvention.HOLD.getName().equals(context.getName())) {
			recording.add(new RecordedHold(context.getKey(), context.getLockType()));
		}
	}

	/**
	 * A hold that a template started during a recorded call.
	 *
	 * @param key the lock key
	 * @param type the lock type asked for
	 */
	record RecordedHold(String key, LockType type) {

	}

}
