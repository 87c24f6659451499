package edge;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;

/** Branches on the kind of a {@link Type}: only reflection makes the generic ones. */
public class TypeKinds {
    /** The kind of {@code type}, as a library of type tokens tells them apart. */
    public static String kind(Type type) {
        if (type == null) {
            return "none";
        }
        if (type instanceof Class) {
            return ((Class<?>) type).isArray() ? "array class" : "class";
        }
        if (type instanceof ParameterizedType) {
            Type owner = ((ParameterizedType) type).getOwnerType();
            return owner == null ? "parameterized" : "parameterized member";
        }
        if (type instanceof GenericArrayType) {
            return "generic array";
        }
        // A type variable; a wildcard (which needs an array element) fails the cast.
        return "variable " + ((TypeVariable<?>) type).getName();
    }
}
