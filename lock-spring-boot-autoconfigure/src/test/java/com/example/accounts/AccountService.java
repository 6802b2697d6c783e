package com.example.accounts;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.DistributedLock;
import dev.zklock.LockTemplate;
import dev.zklock.LockType;

import org.springframework.stereotype.Service;

/**
 * The several keys of the guide's "Lock types" chapter: a transfer locks both accounts,
 * in the same order in every process. {@code GuideSamplesTests} runs it.
 */
@Service
public class AccountService {

	private final Map<String, BigDecimal> balances = new ConcurrentHashMap<>();

	private final LockTemplate lockTemplate;

	public AccountService(LockTemplate lockTemplate) {
		this.lockTemplate = lockTemplate;
	}

	// tag::annotation[]
	@DistributedLock(key = "{'account:' + #from, 'account:' + #to}")
	public void transfer(String from, String to, BigDecimal amount) {
		move(from, to, amount);
	}
	// end::annotation[]

	// tag::template[]
	public String transferLocked(String from, String to, BigDecimal amount) {
		return this.lockTemplate.execute(List.of("account:" + from, "account:" + to), LockType.EXCLUSIVE,
				Duration.ofSeconds(5), (lock) -> {
					move(from, to, amount);
					return lock.key();
				});
	}

	// named Accounts.transfer in metrics
	public void transferNamed(String from, String to, BigDecimal amount) {
		this.lockTemplate.execute("Accounts.transfer", List.of("account:" + from, "account:" + to), LockType.EXCLUSIVE,
				Duration.ofSeconds(5), (lock) -> move(from, to, amount));
	}
	// end::template[]

	public BigDecimal balance(String account) {
		return this.balances.getOrDefault(account, BigDecimal.ZERO);
	}

	private BigDecimal move(String from, String to, BigDecimal amount) {
		this.balances.merge(from, amount.negate(), BigDecimal::add);
		return this.balances.merge(to, amount, BigDecimal::add);
	}

}
