package dev.zklock.leadership;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link org.springframework.context.Lifecycle} bean (a message listener
 * container, a consumer, a cache warmer) that runs only while this instance leads the
 * application's election: the {@link LeaderRoleController} starts it when a term is
 * granted and stops it when the term is revoked. Put it on the bean's class or on its
 * {@code @Bean} method. A {@link org.springframework.context.SmartLifecycle} bean must
 * not start with the application context: its {@code isAutoStartup()} returns
 * {@code false} (start-up fails otherwise).
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LeaderOnly {

}
