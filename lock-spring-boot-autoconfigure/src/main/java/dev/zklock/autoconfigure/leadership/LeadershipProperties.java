package dev.zklock.autoconfigure.leadership;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the application's leader election.
 */
@ConfigurationProperties(prefix = "distributed-lock.leadership", ignoreUnknownFields = false)
public class LeadershipProperties {

	/**
	 * Name of the election this instance is a candidate in, shared by every instance that
	 * competes for the same leadership; it is the key of the election's lock. Without it,
	 * no election is configured.
	 */
	private @Nullable String name;

	/**
	 * Whether the instance joins the election when the application context starts.
	 */
	private boolean autoStartup = true;

	/**
	 * The election's name ({@code distributed-lock.leadership.name}).
	 * @return the name, or {@code null} for no election
	 */
	public @Nullable String getName() {
		return this.name;
	}

	/**
	 * Sets the election's name ({@code distributed-lock.leadership.name}).
	 * @param name the name
	 */
	public void setName(@Nullable String name) {
		this.name = name;
	}

	/**
	 * Whether the instance joins the election at start-up
	 * ({@code distributed-lock.leadership.auto-startup}).
	 * @return whether it joins at start-up
	 */
	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	/**
	 * Sets whether the instance joins the election at start-up
	 * ({@code distributed-lock.leadership.auto-startup}).
	 * @param autoStartup whether it joins at start-up
	 */
	public void setAutoStartup(boolean autoStartup) {
		this.autoStartup = autoStartup;
	}

}
