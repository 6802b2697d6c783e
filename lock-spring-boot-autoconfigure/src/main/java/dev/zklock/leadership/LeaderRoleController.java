package dev.zklock.leadership;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextStartedEvent;
import org.springframework.context.event.SmartApplicationListener;

/**
 * Starts the {@link LeaderOnly @LeaderOnly} beans when a {@link LeadershipInitiator}'s
 * instance is granted a term, in the order they are defined, and stops them, in reverse
 * order, when the term is revoked, as Spring Integration's
 * {@code SmartLifecycleRoleController} does for a role. It runs on the election's thread,
 * so a term's beans have stopped before its lock is released when the leader yields or
 * leaves. A bean that fails to start or stop is logged, and the others go on.
 * <p>
 * An explicit {@code ConfigurableApplicationContext.start()} starts every
 * {@link Lifecycle} bean of the context, the leader-only ones included, whether this
 * instance leads or not: Spring offers no way to leave a bean out. The controller has the
 * last word: when the context has started ({@link ContextStartedEvent}), it stops again,
 * with a warning, the leader-only beans that run while this instance does not lead. They
 * run meanwhile, from their start to the end of the context's {@code start()}.
 */
public class LeaderRoleController implements SmartApplicationListener, SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(LeaderRoleController.class);

	private final ListableBeanFactory beanFactory;

	private final LeadershipInitiator initiator;

	/** The leader-only beans by name, in start order; set once singletons exist. */
	private volatile Map<String, Lifecycle> roleBeans = Map.of();

	/**
	 * Whether the initiator's last event was a grant: whether the leader-only beans are
	 * to run. Guarded by this controller's monitor, which also keeps the election's
	 * thread and the thread that starts the context from starting and stopping the beans
	 * at once.
	 */
	private boolean leading;

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
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return LeadershipEvent.class.isAssignableFrom(eventType)
				|| ContextStartedEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public synchronized void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ContextStartedEvent) {
			if (!this.leading) {
				stopAll("ApplicationContext.start() started it, but this instance does not lead");
			}
			return;
		}
		if (event.getSource() != this.initiator) {
			return;
		}
		this.leading = event instanceof LeadershipGrantedEvent;
		if (this.leading) {
			this.roleBeans.forEach((name, bean) -> apply(name, bean, true));
		}
		else {
			stopAll(null);
		}
	}

	/**
	 * Stops the running beans in reverse order, each with a warning if there is a reason.
	 */
	private void stopAll(@Nullable String warning) {
		List<Map.Entry<String, Lifecycle>> reversed = new ArrayList<>(this.roleBeans.entrySet());
		Collections.reverse(reversed);
		for (Map.Entry<String, Lifecycle> entry : reversed) {
			if (warning != null && entry.getValue().isRunning()) {
				logger.warn("Stopping @LeaderOnly bean '{}': {}", entry.getKey(), warning);
			}
			apply(entry.getKey(), entry.getValue(), false);
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
