package dev.zklock.actuate;

import java.util.ArrayList;
import java.util.List;

import dev.zklock.scheduling.ClusteredJobAnnotationBeanPostProcessor;
import dev.zklock.scheduling.JobRecord;
import dev.zklock.scheduling.JobRecords;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code clusteredjobs} actuator endpoint: the {@link dev.zklock.ClusteredJob}s of
 * this application, each with its record in ZooKeeper, the same on every instance: the
 * scheduled time it last ran, where, when, how it went, and the fencing token of its
 * lock.
 */
@Endpoint(id = "clusteredjobs")
public class ClusteredJobsEndpoint {

	private final ClusteredJobAnnotationBeanPostProcessor jobs;

	private final JobRecords records;

	/**
	 * Creates the endpoint.
	 * @param jobs the post-processor that found the jobs
	 * @param records the jobs' records
	 */
	public ClusteredJobsEndpoint(ClusteredJobAnnotationBeanPostProcessor jobs, JobRecords records) {
		this.jobs = jobs;
		this.records = records;
	}

	/**
	 * The jobs of this application, with their records.
	 * @return the jobs
	 * @throws IllegalStateException if ZooKeeper cannot be read
	 */
	@ReadOperation
	public JobsDescriptor jobs() {
		List<JobDescriptor> jobs = new ArrayList<>();
		this.jobs.jobs()
			.forEach((name, method) -> jobs
				.add(new JobDescriptor(name, method, this.records.pathOf(name), this.records.read(name))));
		return new JobsDescriptor(this.records.getRootPath(), jobs);
	}

	/**
	 * The jobs of this application.
	 *
	 * @param rootPath the ZooKeeper path under which the job records live
	 * @param jobs the jobs, in the order they were found
	 */
	public record JobsDescriptor(String rootPath, List<JobDescriptor> jobs) {

	}

	/**
	 * One job.
	 *
	 * @param name the job's name
	 * @param method its method
	 * @param path the ZooKeeper node of its record
	 * @param lastRun its record, or {@code null} if it never ran
	 */
	public record JobDescriptor(String name, String method, String path, @Nullable JobRecord lastRun) {

	}

}
