package com.example.stock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SpringBootTest(properties = { "distributed-lock.zookeeper.embedded.enabled=true",
		"distributed-lock.zookeeper.embedded.port=0" })
class StockServiceTests {

	@Autowired
	private StockService stock;

	@Autowired
	private LockTemplate lockTemplate;

	@Test
	void annotatedMethodRunsUnderTheLockWithGrowingFencingTokens() {
		long first = this.stock.restock("apples", 3);
		long second = this.stock.restock("apples", 2);
		assertThat(second).isGreaterThan(first);
		assertThat(this.stock.count("apples")).isEqualTo(5);
	}

	@Test
	void keyHeldThroughTheTemplateIsNotFreeForAnotherThread() {
		this.lockTemplate.execute("stock:pears", (lock) -> {
			CompletableFuture<Long> other = CompletableFuture.supplyAsync(() -> this.lockTemplate.execute("stock:pears",
					Duration.ZERO, (otherLock) -> otherLock.fencingToken()));
			assertThatExceptionOfType(CompletionException.class).isThrownBy(other::join)
				.withCauseInstanceOf(LockTimeoutException.class);
			return null;
		});
	}

}
