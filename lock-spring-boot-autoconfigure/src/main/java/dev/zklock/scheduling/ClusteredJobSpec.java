package dev.zklock.scheduling;

import java.util.Set;

import dev.zklock.MissedRuns;

/**
 * A {@link dev.zklock.ClusteredJob} method, checked.
 *
 * @param name the job's name, resolved
 * @param description the method, for messages
 * @param beanName the name of its bean
 * @param taskNames how Spring's scheduled task of the method describes itself (its
 * {@code toString()}), which is how {@link ClusteredJobSchedulingConfigurer} finds it
 * @param missedRuns the annotation's choice for missed runs, maybe
 * {@link MissedRuns#DEFAULT}
 */
record ClusteredJobSpec(String name, String description, String beanName, Set<String> taskNames,
		MissedRuns missedRuns) {

}
