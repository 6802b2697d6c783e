package dev.zklock.scheduling;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.zklock.ClusteredJob;
import dev.zklock.MissedRuns;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EmbeddedValueResolverAware;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;
import org.springframework.util.StringValueResolver;

/**
 * Finds the {@link ClusteredJob} methods of each bean as it is created, checks them, and
 * keeps them for {@link ClusteredJobSchedulingConfigurer}. A job that cannot apply fails
 * start-up with a message naming its method: one without exactly one {@code @Scheduled},
 * with a blank or unusable name or a name another job has, with parameters, or returning
 * a reactive type or suspending (whose work would go on after the run ended).
 * <p>
 * It runs before Spring's {@code ScheduledAnnotationBeanPostProcessor}, so that its
 * messages come first.
 */
public class ClusteredJobAnnotationBeanPostProcessor implements BeanPostProcessor, EmbeddedValueResolverAware, Ordered {

	/** Letters, digits, dots, underscores and dashes: a node name, a lock key, a tag. */
	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

	private final Map<String, ClusteredJobSpec> jobs = new LinkedHashMap<>();

	private @Nullable StringValueResolver resolver;

	/** Set once the jobs were handed to the scheduling; a job found later is an error. */
	private boolean scheduled;

	@Override
	public void setEmbeddedValueResolver(StringValueResolver resolver) {
		this.resolver = resolver;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE - 1;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
		if (!AnnotationUtils.isCandidateClass(targetClass, ClusteredJob.class)) {
			return bean;
		}
		Map<Method, ClusteredJob> annotated = MethodIntrospector.selectMethods(targetClass,
				(MethodIntrospector.MetadataLookup<ClusteredJob>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, ClusteredJob.class));
		annotated.forEach((method, annotation) -> add(parse(method, annotation, targetClass, beanName)));
		return bean;
	}

	private synchronized void add(ClusteredJobSpec spec) {
		if (this.scheduled) {
			throw new InvalidClusteredJobException(spec.description(),
					"its bean '" + spec.beanName() + "' was created after the scheduled tasks were registered",
					"Make the bean neither lazy nor created on demand, so that the job is scheduled at start-up.");
		}
		ClusteredJobSpec other = this.jobs.putIfAbsent(spec.name(), spec);
		if (other != null) {
			throw new InvalidClusteredJobException(
					spec.description() + " of bean '" + spec.beanName() + "'", "its name '" + spec.name()
							+ "' is the name of the job " + other.description() + " of bean '" + other.beanName() + "'",
					"Give each job a name of its own.");
		}
	}

	/**
	 * The jobs found so far, and no more: a job of a bean created afterwards fails.
	 */
	synchronized Collection<ClusteredJobSpec> schedule() {
		this.scheduled = true;
		return List.copyOf(this.jobs.values());
	}

	/**
	 * The names of the jobs found, each with its method.
	 * @return the method of each job, by name, in the order they were found
	 */
	public synchronized Map<String, String> jobs() {
		Map<String, String> jobs = new LinkedHashMap<>();
		this.jobs.forEach((name, spec) -> jobs.put(name, spec.description()));
		return jobs;
	}

	private ClusteredJobSpec parse(Method method, ClusteredJob annotation, Class<?> targetClass, String beanName) {
		String description = describe(method);
		Set<Scheduled> schedules = AnnotatedElementUtils.getMergedRepeatableAnnotations(method, Scheduled.class,
				Schedules.class);
		if (schedules.size() != 1) {
			throw new InvalidClusteredJobException(description,
					(schedules.isEmpty() ? "it has no @Scheduled" : "it has " + schedules.size() + " @Scheduled")
							+ ", so it has no one schedule to run once across the instances",
					"Annotate the method with exactly one @Scheduled (cron, fixedRate or fixedDelay).");
		}
		if (method.getParameterCount() > 0) {
			throw new InvalidClusteredJobException(description, "it has parameters, which no scheduler can pass",
					"Remove the parameters.");
		}
		if (KotlinDetector.isSuspendingFunction(method)
				|| ReactiveAdapterRegistry.getSharedInstance().getAdapter(method.getReturnType()) != null) {
			throw new InvalidClusteredJobException(description,
					"it returns " + method.getReturnType().getSimpleName()
							+ ", whose work would go on after the run, its lock and its record ended",
					"Make the method blocking: return void and wait for the work to complete.");
		}
		String name = resolve(annotation.name(), description);
		MissedRuns missedRuns = annotation.missedRuns();
		return new ClusteredJobSpec(name, description, beanName, names(method, targetClass), missedRuns);
	}

	private String resolve(String name, String description) {
		String resolved;
		try {
			resolved = (this.resolver != null) ? this.resolver.resolveStringValue(name) : name;
		}
		catch (IllegalArgumentException ex) {
			resolved = null;
		}
		if (resolved == null || resolved.contains("${")) {
			throw new InvalidClusteredJobException(description, "its name '" + name + "' does not resolve",
					"Define the placeholder's property, or give it a default: ${property:default}.");
		}
		if (!StringUtils.hasText(resolved)) {
			throw new InvalidClusteredJobException(description, "its name is blank",
					"Name the job, the same in every instance: @ClusteredJob(name = \"nightly-summary\").");
		}
		if (!NAME.matcher(resolved).matches() || resolved.equals(".") || resolved.equals("..")) {
			throw new InvalidClusteredJobException(description,
					"its name '" + resolved + "' is not letters, digits, '.', '_' and '-'",
					"Name the job with letters, digits, '.', '_' and '-' alone, such as \"nightly-summary\".");
		}
		return resolved;
	}

	/**
	 * How Spring's scheduled task for the method describes itself: its declaring class
	 * and name; the class that declares it, or an interface of the target class that
	 * declares it, as Spring may call the method through either.
	 */
	private static Set<String> names(Method method, Class<?> targetClass) {
		Set<String> names = new LinkedHashSet<>();
		names.add(method.getDeclaringClass().getName() + "." + method.getName());
		for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(targetClass)) {
			if (ClassUtils.hasMethod(type, method.getName())) {
				names.add(type.getName() + "." + method.getName());
			}
		}
		return names;
	}

	static String describe(Method method) {
		return ClassUtils.getQualifiedMethodName(method) + "(" + StringUtils.arrayToCommaDelimitedString(
				Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).toArray()) + ")";
	}

}
