/* Test fixture: a deliberately wrong authorizer (it ignores super.users) that the kit must catch. */
import java.util.HashMap;
import java.util.Map;

public class ForgetfulAuthorizer extends PlainAuthorizer {
    @Override
    public void configure(Map<String, ?> configs) {
        Map<String, Object> copy = new HashMap<>(configs);
        copy.remove("super.users");
        super.configure(copy);
    }
}
