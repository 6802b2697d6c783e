package dev.zklock;

import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.leadership.LeaderOnly;

import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * An application with a {@link ClusteredJob} that runs every 200 ms and a
 * {@link LeaderOnly @LeaderOnly} bean, for the tests of what AOT processing and native
 * images need. Public, as is all it holds, so that code generated ahead of time can
 * create its beans.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
public class JobsAndLeadershipApplication {

	@Bean
	public Summary summary() {
		return new Summary();
	}

	@Bean
	@LeaderOnly
	public Feed feed() {
		return new Feed();
	}

	/** The job, which counts its runs and fails outside the job's lock. */
	public static class Summary {

		private final AtomicInteger runs = new AtomicInteger();

		@Scheduled(fixedRate = 200)
		@ClusteredJob(name = "summary")
		public void summarize() {
			LockHandle.current();
			this.runs.incrementAndGet();
		}

		public int runs() {
			return this.runs.get();
		}

	}

	/** Started and stopped by the leadership alone; counts its starts. */
	public static class Feed implements SmartLifecycle {

		private final AtomicInteger starts = new AtomicInteger();

		private volatile boolean running;

		@Override
		public boolean isAutoStartup() {
			return false;
		}

		@Override
		public void start() {
			this.starts.incrementAndGet();
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		public int starts() {
			return this.starts.get();
		}

	}

}
