package com.example.accounts;

import dev.zklock.DistributedLock;
import dev.zklock.LockTemplate;
import dev.zklock.jdbc.JdbcLockFence;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JDBC fence of the guide's "Fencing tokens and the JDBC fence" chapter: balances
 * updated by holders of the account's lock whose writes the fence checks.
 * {@code GuideSamplesTests} runs it.
 */
@Service
public class AccountBalances {

	private final JdbcTemplate jdbc;

	private final JdbcLockFence fence;

	private final LockTemplate lockTemplate;

	private final TransactionTemplate transactionTemplate;

	public AccountBalances(JdbcTemplate jdbc, JdbcLockFence fence, LockTemplate lockTemplate,
			TransactionTemplate transactionTemplate) {
		this.jdbc = jdbc;
		this.fence = fence;
		this.lockTemplate = lockTemplate;
		this.transactionTemplate = transactionTemplate;
	}

	// tag::fence[]
	@DistributedLock(key = "'account:' + #id")
	@Transactional
	public void credit(String id, long amount) {
		this.fence.check(); // first: before reading what the transaction writes
		long balance = this.jdbc.queryForObject("select balance from account where id = ?", Long.class, id);
		this.jdbc.update("update account set balance = ? where id = ?", balance + amount, id);
	}

	public void debit(String id, long amount) {
		this.lockTemplate.execute("account:" + id, (lock) -> this.transactionTemplate.execute((status) -> {
			this.fence.check(lock);
			long balance = this.jdbc.queryForObject("select balance from account where id = ?", Long.class, id);
			return this.jdbc.update("update account set balance = ? where id = ?", balance - amount, id);
		}));
	}
	// end::fence[]

	public long balance(String id) {
		return this.jdbc.queryForObject("select balance from account where id = ?", Long.class, id);
	}

}
