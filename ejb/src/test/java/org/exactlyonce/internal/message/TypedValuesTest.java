package org.exactlyonce.internal.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class TypedValuesTest {

    @Test
    void everyJmsValueTypeComesBackWithItsTypeAndValue() {
        List<Object> values = List.of(
                true,
                (byte) -8,
                (short) 300,
                'x',
                42,
                Long.MIN_VALUE,
                0.1f,
                Double.MAX_VALUE,
                Double.NaN,
                "text with \0 and \u6ce8",
                "");

        for (Object value : values) {
            Object back = TypedValues.value(TypedValues.typed(value));
            assertEquals(value, back, String.valueOf(value));
            assertEquals(value.getClass(), back.getClass());
        }
    }

    @Test
    void bytesComeBackByteForByte() {
        byte[] bytes = {0, 1, -1, 127, -128};

        assertArrayEquals(bytes, (byte[]) TypedValues.value(TypedValues.typed(bytes)));
    }

    @Test
    void aNullValueStaysNull() {
        assertNull(TypedValues.value(TypedValues.typed(null)));
    }
}
