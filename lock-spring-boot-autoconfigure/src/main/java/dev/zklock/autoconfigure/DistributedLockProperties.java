package dev.zklock.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of distributed locks.
 */
@ConfigurationProperties("distributed-lock")
public class DistributedLockProperties {

	/**
	 * ZooKeeper path under which the lock nodes are created, one child per key.
	 */
	private String rootPath = "/locks";

	/**
	 * Time to wait for a lock when the annotation or the template call names none.
	 */
	private Duration waitTime = Duration.ofSeconds(5);

	public String getRootPath() {
		return this.rootPath;
	}

	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	public Duration getWaitTime() {
		return this.waitTime;
	}

	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

}
