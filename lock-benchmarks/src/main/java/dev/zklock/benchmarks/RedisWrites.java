package dev.zklock.benchmarks;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import org.redisson.client.NettyHook;
import org.redisson.client.protocol.CommandData;
import org.redisson.client.protocol.CommandsData;

/**
 * Counts the writes that a Redisson client sends to Redis: a {@link NettyHook} that puts
 * a handler at the client end of every connection's pipeline, where each command passes
 * once, as it is sent, before Redisson encodes it. A write is a Lua script call
 * ({@code EVAL} or {@code EVALSHA}): Redisson's locks change Redis only through scripts,
 * each one atomic, one entry in the append-only file, publishing the release included.
 * Connection upkeep ({@code PING}), subscriptions and script loading are not writes.
 */
final class RedisWrites implements NettyHook {

	private static final Set<String> SCRIPT_CALLS = Set.of("EVAL", "EVALSHA");

	private final LongAdder writes = new LongAdder();

	private final Counter counter = new Counter();

	/**
	 * The writes sent so far on every connection of the client.
	 * @return the count
	 */
	long count() {
		return this.writes.sum();
	}

	@Override
	public void afterBoostrapInitialization(Bootstrap bootstrap) {
	}

	@Override
	public void afterChannelInitialization(Channel channel) {
		channel.pipeline().addLast(this.counter);
	}

	private void count(CommandData<?, ?> command) {
		if (SCRIPT_CALLS.contains(command.getCommand().getName())) {
			this.writes.increment();
		}
	}

	/**
	 * The handler that sees every command written to a connection.
	 */
	@ChannelHandler.Sharable
	private final class Counter extends ChannelOutboundHandlerAdapter {

		@Override
		public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
			if (message instanceof CommandData<?, ?> command) {
				count(command);
			}
			else if (message instanceof CommandsData batch) {
				List<CommandData<?, ?>> commands = batch.getCommands();
				commands.forEach(RedisWrites.this::count);
			}
			super.write(context, message, promise);
		}

	}

}
