//! The macros of the noticing deserializers (`inline.rs`, `checked.rs`): a wrapper forwards
//! what it does not look at to the deserializer or visitor it wraps, unchanged.

/// `Deserializer` methods that hand the visitor, and their other arguments (`name`, `len`,
/// ...), to the wrapped deserializer `self.de` unchanged.
macro_rules! forward_deserialize {
    ($($method:ident $(($($arg:ident: $ty:ty),*))?)*) => {
        $(
            #[inline(always)]
            fn $method<V: Visitor<'de>>(
                self,
                $($($arg: $ty,)*)?
                visitor: V,
            ) -> Result<V::Value, Self::Error> {
                self.de.$method($($($arg,)*)? visitor)
            }
        )*
    };
}

/// Forwards the listed visits of a visitor wrapper to its `visitor`.
macro_rules! forward_visit {
    ($($method:ident($ty:ty))*) => {
        $(
            #[inline(always)]
            fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.visitor.$method(v)
            }
        )*
    };
}

/// The scalar visits, forwarded.
macro_rules! forward_scalars {
    () => {
        forward_visit! {
            visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
            visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
            visit_u128(u128) visit_f32(f32) visit_f64(f64) visit_char(char)
            visit_bytes(&[u8]) visit_byte_buf(Vec<u8>)
        }

        fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
            self.visitor.visit_borrowed_bytes(v)
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            self.visitor.visit_none()
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.visitor.visit_unit()
        }

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.visitor.expecting(f)
        }
    };
}

/// The text visits, forwarded.
macro_rules! forward_texts {
    () => {
        forward_visit! { visit_str(&str) visit_string(String) }

        #[inline(always)]
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            self.visitor.visit_borrowed_str(v)
        }
    };
}

/// The visits of nested values, forwarded (the nested values are not looked at).
macro_rules! forward_nested {
    ($($method:ident)*) => {
        $(forward_nested!(@one $method);)*
    };
    (@one visit_some) => {
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
            self.visitor.visit_some(d)
        }
    };
    (@one visit_newtype_struct) => {
        fn visit_newtype_struct<D2: Deserializer<'de>>(
            self,
            d: D2,
        ) -> Result<Self::Value, D2::Error> {
            self.visitor.visit_newtype_struct(d)
        }
    };
    (@one visit_seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            self.visitor.visit_seq(seq)
        }
    };
    (@one visit_map) => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            self.visitor.visit_map(map)
        }
    };
    (@one visit_enum) => {
        fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
            self.visitor.visit_enum(data)
        }
    };
}
