package dev.zklock.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holders of one lock in two applications, through the annotation and through the
 * template, pass the fence and lose no increment of the shared counter.
 */
class FencedConcurrentHoldersTests extends AbstractFencedHoldersTests {

	@Test
	void holdersOfTwoApplicationsPassTheFenceAndLoseNoIncrement() {
		this.applications.run((first) -> this.applications.run((second) -> {
			ExecutorService threads = Executors.newFixedThreadPool(4);
			try {
				List<Future<?>> work = new ArrayList<>();
				for (int t = 0; t < 4; t++) {
					Counter counter = counter((t < 2) ? first : second);
					boolean annotated = t % 2 == 0;
					work.add(threads.submit(() -> {
						for (int i = 0; i < 10; i++) {
							if (annotated) {
								counter.increment("annotated");
							}
							else {
								counter.incrementThroughTheTemplate("template");
							}
						}
						return null;
					}));
				}
				for (Future<?> future : work) {
					future.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
				}
			}
			finally {
				threads.shutdownNow();
			}
			assertThat(total()).isEqualTo(40);
			assertThat(ledger()).hasSize(40);
		}));
	}

}
