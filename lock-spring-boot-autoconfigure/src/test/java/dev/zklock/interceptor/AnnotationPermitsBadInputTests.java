package dev.zklock.interceptor;

import java.util.stream.Stream;

import dev.zklock.DistributedLock;
import dev.zklock.LockType;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Semaphores of fewer than one permit, and permits of exclusive, read and write locks,
 * fail start-up.
 */
class AnnotationPermitsBadInputTests extends AbstractAnnotationBadInputTests {

	static Stream<Arguments> badAttributesFailStartUp() {
		return Stream.of(startUpFailure(ZeroPermits.class, "0 permits"),
				startUpFailure(NegativePermits.class, "-1 permits"),
				startUpFailure(MostNegativePermits.class, Integer.MIN_VALUE + " permits"),
				startUpFailure(PermitsOfAnExclusiveLock.class, "2 permits of a EXCLUSIVE lock"),
				startUpFailure(PermitsOfAReadLock.class, Integer.MAX_VALUE + " permits of a READ lock"),
				startUpFailure(PermitsOfAWriteLock.class, "3 permits of a WRITE lock"));
	}

	static class ZeroPermits {

		@DistributedLock(key = "'k'", type = LockType.SEMAPHORE, permits = 0)
		public void work() {
		}

	}

	static class NegativePermits {

		@DistributedLock(key = "'k'", type = LockType.SEMAPHORE, permits = -1)
		public void work() {
		}

	}

	static class MostNegativePermits {

		@DistributedLock(key = "'k'", type = LockType.SEMAPHORE, permits = Integer.MIN_VALUE)
		public void work() {
		}

	}

	static class PermitsOfAnExclusiveLock {

		@DistributedLock(key = "'k'", permits = 2)
		public void work() {
		}

	}

	static class PermitsOfAReadLock {

		@DistributedLock(key = "'k'", type = LockType.READ, permits = Integer.MAX_VALUE)
		public void work() {
		}

	}

	static class PermitsOfAWriteLock {

		@DistributedLock(key = "'k'", type = LockType.WRITE, permits = 3)
		public void work() {
		}

	}

}
