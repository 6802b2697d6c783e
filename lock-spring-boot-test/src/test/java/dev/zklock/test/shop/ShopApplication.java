package dev.zklock.test.shop;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application that locks, as the tests of the test support use one.
 */
@SpringBootApplication
public class ShopApplication {

}
