package dev.zklock.test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

import dev.zklock.test.shop.OrderService;
import dev.zklock.test.shop.ShopApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

class EmbeddedLockServerContextCustomizerFactoryTests {

	private final EmbeddedLockServerContextCustomizerFactory factory = new EmbeddedLockServerContextCustomizerFactory();

	@Test
	void testClassWithoutTheAnnotationGetsNoServer() {
		assertThat(this.factory.createContextCustomizer(Unannotated.class, List.of())).isNull();
	}

	@Test
	void testClassesWithTheAnnotationShareAContextAndItsServer() {
		assertThat(this.factory.createContextCustomizer(Annotated.class, List.of()))
			.isEqualTo(this.factory.createContextCustomizer(Annotated.Nested.class, List.of()));
	}

	@Test
	void serverServesTheContextAndStopsWhenTheContextCloses() throws Exception {
		ContextCustomizer customizer = this.factory.createContextCustomizer(Annotated.class, List.of());
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ShopApplication.class)
			.initializers((applicationContext) -> customizer.customizeContext(applicationContext, null))
			.run();
		String connectString;
		try {
			connectString = context.getEnvironment()
				.getRequiredProperty(EmbeddedLockServerContextCustomizer.CONNECT_STRING_PROPERTY);
			context.getBean(OrderService.class).pay("20");
			assertThat(context.getBean(OtherProcess.class)).isNotNull();
		}
		finally {
			context.close();
		}
		String[] hostAndPort = connectString.split(":");
		try (Socket socket = new Socket()) {
			assertThatIOException().isThrownBy(() -> socket
				.connect(new InetSocketAddress(hostAndPort[0], Integer.parseInt(hostAndPort[1])), 10_000));
		}
	}

	static class Unannotated {

	}

	@EmbeddedLockServer
	static class Annotated {

		@org.junit.jupiter.api.Nested
		class Nested {

		}

	}

}
