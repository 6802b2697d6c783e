package com.example.reports;

import java.time.Duration;
import java.time.LocalDate;

import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;

import org.springframework.stereotype.Service;

/**
 * The template calls of the guide's "The template and LockRequest" chapter: a daily
 * report built under the lock of its day, stamped with the lock's fencing token.
 * {@code GuideSamplesTests} runs it.
 */
@Service
public class DailyReports {

	private final LockTemplate lockTemplate;

	public DailyReports(LockTemplate lockTemplate) {
		this.lockTemplate = lockTemplate;
	}

	// tag::execute[]
	public Report build(LocalDate day) {
		return this.lockTemplate.execute("report:" + day, (lock) -> render(day, lock.fencingToken()));
	}

	public Report buildIfFree(LocalDate day) {
		return this.lockTemplate.execute("report:" + day, Duration.ZERO, (lock) -> render(day, lock.fencingToken()));
	}
	// end::execute[]

	// tag::named[]
	public Report buildNamed(LocalDate day) {
		return this.lockTemplate.execute(LockRequest.exclusive("report:" + day).withName("Reports.build"),
				(lock) -> render(day, lock.fencingToken()));
	}
	// end::named[]

	private Report render(LocalDate day, long fencingToken) {
		return new Report(day, fencingToken);
	}

	/**
	 * A report of one day.
	 *
	 * @param day the day
	 * @param fencingToken the token of the lock it was built under
	 */
	public record Report(LocalDate day, long fencingToken) {
	}

}
