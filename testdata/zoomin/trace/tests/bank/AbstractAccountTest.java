package bank;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Tests every account test class inherits (JUnit runs them in each concrete subclass). */
public abstract class AbstractAccountTest {
    @Test
    public void startsEmpty() {
        assertEquals(0, new Account().getBalance());
    }
}
