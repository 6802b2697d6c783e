package dev.zklock.leadership;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationListener;
import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the {@link LeaderOnly @LeaderOnly} beans when a {@link LeadershipInitiator}'s
 * instance is granted a term, in the order they are defined, and stops them, in reverse
 * order, when the term is revoked, as Spring Integration's
 * {@code SmartLifecycleRoleController} does for a role. It runs on the election's thread,
 * so a term's beans have stopped before its lock is released when the leader yields or
 * leaves. A bean that fails to start or stop is logged, and the others go on.
 */
public class LeaderRoleController implements ApplicationListener<LeadershipEvent>, SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(LeaderRoleController.class);

	private final ListableBeanFactory beanFactory;

	private final LeadershipInitiator initiator;

	/** The leader-only beans by name, in start order; set once singletons exist. */
	private volatile Map<String, Lifecycle> roleBeans = Map.of();

	/**
	 * Creates a controller of the leader-only beans of a bean factory.
	 * @param beanFactory where the {@link LeaderOnly @LeaderOnly} beans are
	 * @param initiator the initiator whose terms the beans follow; the events of others
	 * are ignored
	 */
	public LeaderRoleController(ListableBeanFactory beanFactory, LeadershipInitiator initiator) {
		this.beanFactory = beanFactory;
		this.initiator = initiator;
	}

	/**
	 * Finds the leader-only beans, and checks that each is a {@link Lifecycle} that does
	 * not start with the application context.
	 * @throws BeanCreationException naming a leader-only bean that is no
	 * {@link Lifecycle}, or a {@link SmartLifecycle} whose {@code isAutoStartup()} is
	 * {@code true}
	 */
	@Override
	public void afterSingletonsInstantiated() {
		Map<String, Object> annotated = this.beanFactory.getBeansWithAnnotation(LeaderOnly.class);
		Map<String, Lifecycle> found = new LinkedHashMap<>();
		annotated.forEach((name, bean) -> {
			if (!(bean instanceof Lifecycle lifecycle)) {
				throw new BeanCreationException(name, "A @LeaderOnly bean must be a Lifecycle (or SmartLifecycle) "
						+ "to be started and stopped with leadership, but is a " + bean.getClass().getName());
			}
			if (bean instanceof SmartLifecycle smart && smart.isAutoStartup()) {
				throw new BeanCreationException(name, "A @LeaderOnly bean must not start with the application "
						+ "context, as it would run on every instance: make its isAutoStartup() return false");
			}
			found.put(name, lifecycle);
		});
		this.roleBeans = found;
	}

	@Override
	public void onApplicationEvent(LeadershipEvent event) {
		if (event.getSource() != this.initiator) {
			return;
		}
		if (event instanceof LeadershipGrantedEvent) {
			this.roleBeans.forEach((name, bean) -> apply(name, bean, true));
		}
		else {
			List<Map.Entry<String, Lifecycle>> reversed = new ArrayList<>(this.roleBeans.entrySet());
			Collections.reverse(reversed);
			reversed.forEach((entry) -> apply(entry.getKey(), entry.getValue(), false));
		}
	}

	private void apply(String name, Lifecycle bean, boolean start) {
		try {
			if (start && !bean.isRunning()) {
				bean.start();
			}
			else if (!start && bean.isRunning()) {
				bean.stop();
			}
		}
		catch (RuntimeException ex) {
			logger.error("Could not {} @LeaderOnly bean '{}'", start ? "start" : "stop", name, ex);
		}
	}

}
