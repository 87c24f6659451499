package bank;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AccountTest extends AbstractAccountTest {
    @Test
    public void depositAfterARefusal() {
        Account account = new Account();
        try {
            account.deposit(-1);
        } catch (IllegalArgumentException expected) {
            // refused
        }
        account.deposit(5);
        assertEquals(5, account.getBalance());
    }
}
