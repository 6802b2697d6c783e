package com.example.reports;

import java.time.Duration;
import java.time.LocalDate;

import dev.zklock.LockTemplate;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

public class NightlyReports implements AutoCloseable {

	private final CuratorFramework client;

	private final ZooKeeperLockRegistry registry;

	private final LockTemplate locks;

	public NightlyReports(String connectString) {
		this.client = CuratorFrameworkFactory.newClient(connectString, new ExponentialBackoffRetry(100, 5));
		this.client.start();
		this.registry = new ZooKeeperLockRegistry(this.client, "/locks");
		this.locks = new LockTemplate(this.registry, Duration.ofSeconds(5));
	}

	public String build(LocalDate day) {
		return this.locks.execute("report:" + day, (lock) -> "report of " + day + ", token " + lock.fencingToken());
	}

	@Override
	public void close() {
		this.registry.close();
		this.client.close();
	}

}
