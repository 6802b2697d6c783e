package dev.zklock.test;

import dev.zklock.LockTemplate;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;

import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;

/**
 * Shows {@link LockAssertions} the lock templates and registries of an
 * {@link EmbeddedLockServer} test's application context, for as long as the context
 * lives.
 */
final class LockRecordingPostProcessor implements DestructionAwareBeanPostProcessor {

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof LockTemplate template) {
			LockRecorder.INSTANCE.observe(template);
		}
		if (bean instanceof ZooKeeperLockRegistry registry) {
			LockRecorder.INSTANCE.watch(registry);
		}
		return bean;
	}

	@Override
	public void postProcessBeforeDestruction(Object bean, String beanName) {
		if (bean instanceof ZooKeeperLockRegistry registry) {
			LockRecorder.INSTANCE.forget(registry);
		}
	}

	@Override
	public boolean requiresDestruction(Object bean) {
		return bean instanceof ZooKeeperLockRegistry;
	}

}
