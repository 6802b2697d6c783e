package dev.zklock.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Key stores and a trust store for TLS tests, made with the JDK's {@code keytool} in a
 * directory of the test's: a server and a client certificate, each self-signed for
 * 127.0.0.1 and localhost, in PKCS12 key stores, and a PKCS12 trust store holding both.
 */
public final class TestCertificates {

	/** Password of both key stores. */
	public static final String KEY_STORE_PASSWORD = "key-store-secret";

	/** Password of the trust store. */
	public static final String TRUST_STORE_PASSWORD = "trust-store-secret";

	private final Path directory;

	private TestCertificates(Path directory) {
		this.directory = directory;
	}

	/**
	 * Makes the stores.
	 * @param directory where to write them
	 * @return the stores
	 * @throws Exception if keytool fails
	 */
	public static TestCertificates create(Path directory) throws Exception {
		TestCertificates certificates = new TestCertificates(directory);
		for (String name : List.of("server", "client")) {
			Path keyStore = certificates.keyStore(name);
			keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
					"CN=zklock-test-" + name, "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype",
					"PKCS12", "-keystore", keyStore.toString(), "-storepass", KEY_STORE_PASSWORD);
			Path certificate = directory.resolve(name + ".crt");
			keytool("-exportcert", "-rfc", "-alias", name, "-keystore", keyStore.toString(), "-storepass",
					KEY_STORE_PASSWORD, "-file", certificate.toString());
			keytool("-importcert", "-noprompt", "-alias", name, "-file", certificate.toString(), "-storetype", "PKCS12",
					"-keystore", certificates.trustStore().toString(), "-storepass", TRUST_STORE_PASSWORD);
		}
		return certificates;
	}

	public Path serverKeyStore() {
		return keyStore("server");
	}

	public Path clientKeyStore() {
		return keyStore("client");
	}

	/**
	 * The server's certificate alone, in PEM.
	 * @return the certificate file, named {@code server.crt}
	 */
	public Path serverCertificate() {
		return this.directory.resolve("server.crt");
	}

	public Path trustStore() {
		return this.directory.resolve("trust.p12");
	}

	private Path keyStore(String name) {
		return this.directory.resolve(name + ".p12");
	}

	private static void keytool(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			process.destroyForcibly();
			throw new IllegalStateException("keytool " + arguments[0] + " failed: " + output);
		}
	}

}
