package com.example.reports;

import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.ClusteredJob;
import dev.zklock.LockHandle;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * The clustered job of the guide's "Scheduled jobs" chapter: a nightly summary that runs
 * on one instance per night. {@code GuideSamplesTests} runs it every second on two
 * instances.
 */
@Service
public class NightlySummary {

	private final List<Summary> summaries = new CopyOnWriteArrayList<>();

	// tag::job[]
	@Scheduled(cron = "${reports.nightly-summary.cron:0 0 2 * * *}")
	@ClusteredJob(name = "nightly-summary")
	public void summarize() {
		LocalDate day = LocalDate.now().minusDays(1);
		long fencingToken = LockHandle.current().fencingToken();
		this.summaries.add(new Summary(day, fencingToken));
	}
	// end::job[]

	/**
	 * The summaries this instance wrote.
	 * @return the summaries
	 */
	public List<Summary> summaries() {
		return this.summaries;
	}

	/**
	 * The summary of one day.
	 *
	 * @param day the day
	 * @param fencingToken the token of the job's lock when it was written
	 */
	public record Summary(LocalDate day, long fencingToken) {

	}

}
