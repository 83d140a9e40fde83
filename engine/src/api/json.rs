//! JSON reading and writing for the request and response types: [`FromJson`] and [`ToJson`]
//! through a `serde_json::Value`, the [`members!`](crate::members) and
//! [`writers!`](crate::writers) declarations built on them, and `impl Deserialize` /
//! `impl Serialize` through those.

use super::{AnyReceiptHandle, Body, Md5, MessageId, QueueUrl, ReceiptHandle};
use serde::de;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::collections::BTreeMap;

/// A JSON object read one member at a time. Members are read in the order the reader asks for
/// them, so the first error is that of the first member in declaration order, whatever the
/// order of the object's members.
pub struct Input(pub Value);

impl Input {
    /// Reads a value with `read`, through a JSON value.
    pub fn read<'de, D: Deserializer<'de>, T>(
        deserializer: D,
        read: fn(Input) -> Result<T, serde_json::Error>,
    ) -> Result<T, D::Error> {
        read(Input(Value::deserialize(deserializer)?)).map_err(de::Error::custom)
    }

    /// Takes the member `name` out of the object, with serde's error when it is missing.
    pub fn field<T: FromJson>(&mut self, name: &'static str) -> Result<T, serde_json::Error> {
        let member = self
            .take(name)?
            .ok_or_else(|| de::Error::missing_field(name))?;
        T::from_json(member)
    }

    /// Takes the member `name` out of the object, or `T`'s default when it is missing (an
    /// `Option` member is `None`, as serde's `default` reads it).
    pub fn field_or_default<T: FromJson + Default>(
        &mut self,
        name: &'static str,
    ) -> Result<T, serde_json::Error> {
        self.field_or(name, T::default())
    }

    /// Takes the member `name` out of the object, `None` when it is missing (or `null`).
    pub fn optional<T: FromJson>(
        &mut self,
        name: &'static str,
    ) -> Result<Option<T>, serde_json::Error> {
        self.field_or(name, None)
    }

    /// Takes the member `name` out of the object, or `default` when it is missing.
    pub fn field_or<T: FromJson>(
        &mut self,
        name: &'static str,
        default: T,
    ) -> Result<T, serde_json::Error> {
        match self.take(name)? {
            Some(member) => T::from_json(member),
            None => Ok(default),
        }
    }

    fn take(&mut self, name: &str) -> Result<Option<Value>, serde_json::Error> {
        match &mut self.0 {
            Value::Object(members) => Ok(members.remove(name)),
            _ => Err(de::Error::custom("expected a JSON object")),
        }
    }
}

/// A value read from a JSON value, with the errors serde gives.
pub trait FromJson: Sized {
    /// Reads the value.
    fn from_json(value: Value) -> Result<Self, serde_json::Error>;
}

/// What serde calls the JSON value in its "invalid type" errors.
fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => de::Unexpected::Unsigned(u),
            (None, Some(i)) => de::Unexpected::Signed(i),
            (None, None) => de::Unexpected::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// serde's error for `value` where `expected` was wanted.
fn invalid_type(value: &Value, expected: &'static str) -> serde_json::Error {
    de::Error::invalid_type(unexpected(value), &expected)
}

impl FromJson for Value {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        Ok(value)
    }
}

impl FromJson for String {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        match value {
            Value::String(text) => Ok(text),
            other => Err(invalid_type(&other, "a string")),
        }
    }
}

impl FromJson for bool {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        value
            .as_bool()
            .ok_or_else(|| invalid_type(&value, "a boolean"))
    }
}

impl FromJson for f64 {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        value.as_f64().ok_or_else(|| invalid_type(&value, "f64"))
    }
}

/// Integers: a number of another kind is the wrong type, one out of range the wrong value.
macro_rules! integer_from_json {
    ($($ty:ty),*) => {
        $(impl FromJson for $ty {
            fn from_json(value: Value) -> Result<Self, serde_json::Error> {
                let whole = match &value {
                    Value::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
                    _ => None,
                };
                let Some(whole) = whole else {
                    return Err(invalid_type(&value, stringify!($ty)));
                };
                <$ty>::try_from(whole)
                    .map_err(|_| de::Error::invalid_value(unexpected(&value), &stringify!($ty)))
            }
        })*
    };
}

integer_from_json!(i64, u32, u64);

/// `null` is `None`.
impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        match value {
            Value::Null => Ok(None),
            other => T::from_json(other).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        match value {
            Value::Array(items) => items.into_iter().map(T::from_json).collect(),
            other => Err(invalid_type(&other, "a sequence")),
        }
    }
}

/// Member by member: a JSON object's members are sorted and unique already, so collecting them
/// would sort them again (with a sort compiled for each `T`).
impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        let Value::Object(members) = value else {
            return Err(invalid_type(&value, "a map"));
        };
        let mut map = BTreeMap::new();
        for (name, member) in members {
            map.insert(name, T::from_json(member)?);
        }
        Ok(map)
    }
}

/// Types read from their text.
macro_rules! text_from_json {
    ($($ty:ty),*) => {
        $(impl FromJson for $ty {
            fn from_json(value: Value) -> Result<Self, serde_json::Error> {
                String::from_json(value).map(<$ty>::from)
            }
        })*
    };
}

text_from_json!(Body, AnyReceiptHandle, QueueUrl);

impl FromJson for MessageId {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        let text = String::from_json(value)?;
        MessageId::new(&text)
            .ok_or_else(|| de::Error::custom(format!("a MessageId is at most 36 bytes: {text}")))
    }
}

/// A value as JSON.
pub trait ToJson {
    /// The JSON value.
    fn to_json(&self) -> Value;
}

/// A JSON object written one member at a time, for the writers declared by [`members!`](crate::members) and
/// [`writers!`](crate::writers). Its members come out sorted by name (a `serde_json::Map`).
#[derive(Default)]
pub struct Output(serde_json::Map<String, Value>);

impl Output {
    /// Writes the member `name`.
    pub fn field<T: ToJson + ?Sized>(&mut self, name: &'static str, value: &T) {
        self.value(name, value.to_json());
    }

    /// Writes the member `name` (`null` when `None`), as [`Input::field_or_default`] reads it.
    pub fn field_or_default<T: ToJson>(&mut self, name: &'static str, value: &T) {
        self.field(name, value);
    }

    /// Writes the member `name` when it is `Some`.
    pub fn optional<T: ToJson>(&mut self, name: &'static str, value: &Option<T>) {
        if let Some(value) = value {
            self.field(name, value);
        }
    }

    /// Writes the list `name` unless it is empty.
    pub fn non_empty<T: ToJson>(&mut self, name: &'static str, value: &[T]) {
        if !value.is_empty() {
            self.field(name, value);
        }
    }

    /// Writes the member `name` as `value`, already JSON.
    pub fn value(&mut self, name: &'static str, value: Value) {
        self.0.insert(name.to_string(), value);
    }
}

impl From<Output> for Value {
    fn from(out: Output) -> Value {
        Value::Object(out.0)
    }
}

impl ToJson for Value {
    fn to_json(&self) -> Value {
        self.clone()
    }
}

impl ToJson for str {
    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
}

/// Types that write as their text.
macro_rules! text_to_json {
    ($($ty:ty),*) => {
        $(impl ToJson for $ty {
            fn to_json(&self) -> Value {
                self.to_string().into()
            }
        })*
    };
}

text_to_json!(
    String,
    QueueUrl,
    Body,
    MessageId,
    Md5,
    ReceiptHandle,
    AnyReceiptHandle
);

/// Types that convert to a JSON value as they are.
macro_rules! value_to_json {
    ($($ty:ty),*) => {
        $(impl ToJson for $ty {
            fn to_json(&self) -> Value {
                (*self).into()
            }
        })*
    };
}

value_to_json!(bool, i64, u32, u64, usize, f64);

impl<T: ToJson + ?Sized> ToJson for &T {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

/// `null` when `None`.
impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToJson::to_json)
    }
}

impl<T: ToJson> ToJson for [T] {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(ToJson::to_json).collect())
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
}

/// Member by member, for the reason [`FromJson`]'s reader gives.
impl<T: ToJson> ToJson for BTreeMap<String, T> {
    fn to_json(&self) -> Value {
        let mut members = serde_json::Map::new();
        for (name, value) in self {
            members.insert(name.clone(), value.to_json());
        }
        Value::Object(members)
    }
}

/// Each type's reader and writer, with their `impl Deserialize` and `impl Serialize`, from its
/// members: `Type { field: field("Member"), optional: optional("Member") }`. The same name says
/// how a member is read ([`Input::field`], ...) and written ([`Output::field`], ...).
#[macro_export]
macro_rules! members {
    ($($ty:ident { $($field:ident: $how:ident($member:literal)),* $(,)? })*) => {
        $(impl $ty {
            fn read(mut input: $crate::api::Input) -> Result<Self, serde_json::Error> {
                Ok($ty { $($field: input.$how($member)?,)* })
            }
        }

        $crate::read_by_hand!($ty);)*
        $crate::writers! { $($ty { $($field: $how($member)),* })* }
    };
}

/// Each type's writer (see [`Output`]) and `impl Serialize` through it, from its members, as
/// [`members!`](crate::members) has them.
#[macro_export]
macro_rules! writers {
    ($($ty:ident { $($field:ident: $how:ident($member:literal)),* $(,)? })*) => {
        $(impl $crate::api::ToJson for $ty {
            fn to_json(&self) -> serde_json::Value {
                let mut out = $crate::api::Output::default();
                $(out.$how($member, &self.$field);)*
                out.into()
            }
        }

        $crate::write_by_hand!($ty);)*
    };
}

/// `impl Deserialize` and [`FromJson`] through each type's
/// `fn read(Input) -> Result<Self, serde_json::Error>` (see [`Input`]).
#[macro_export]
macro_rules! read_by_hand {
    ($($input:ident),* $(,)?) => {
        $(impl<'de> ::serde::Deserialize<'de> for $input {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::api::Input::read(deserializer, $input::read)
            }
        }

        impl $crate::api::FromJson for $input {
            fn from_json(value: serde_json::Value) -> Result<Self, serde_json::Error> {
                $input::read($crate::api::Input(value))
            }
        })*
    };
}

/// `impl Serialize` through each type's [`ToJson`]. JSON objects come out with their members
/// sorted by name, as every writer here has always written them (through a `serde_json::Value`,
/// whose maps are sorted).
#[macro_export]
macro_rules! write_by_hand {
    ($($ty:ty),* $(,)?) => {
        $(impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                ::serde::Serialize::serialize(&$crate::api::ToJson::to_json(self), serializer)
            }
        })*
    };
}

/// Writes the fields of an enum's struct variants into `out` under their own names and answers
/// the variant's name (the caller puts it where its format wants it); `; pattern => arm` adds
/// arms for the other variants.
#[macro_export]
macro_rules! variants_to_json {
    ($value:expr, $enum:ident, $out:ident;
     $($variant:ident { $($field:ident),* }),* $(,)?
     $(; $($other:pat => $arm:expr),* $(,)?)?) => {
        match $value {
            $($enum::$variant { $($field),* } => {
                $($out.field(stringify!($field), $field);)*
                stringify!($variant)
            })*
            $($($other => $arm,)*)?
        }
    };
}

/// An adjacently tagged `{TAG: NAME, "input": INPUT}` object as its NAME and INPUT, with serde's
/// own errors for a missing member.
pub fn split_tagged(value: Value, tag: &'static str) -> Result<(String, Value), serde_json::Error> {
    let mut object = Input(value);
    let name = object.field(tag)?;
    let input = object.field("input")?;
    Ok((name, input))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Attributes;
    use std::fmt;

    /// The readers answer what serde's would, values and errors alike.
    #[test]
    fn from_json_reads_and_fails_as_serde_does() {
        fn same<T: FromJson + de::DeserializeOwned + PartialEq + fmt::Debug>(value: &Value) {
            let by_hand = T::from_json(value.clone()).map_err(|e| e.to_string());
            let by_serde = serde_json::from_value::<T>(value.clone()).map_err(|e| e.to_string());
            assert_eq!(by_hand, by_serde, "{value}");
        }
        let values = [
            serde_json::json!(null),
            serde_json::json!(true),
            serde_json::json!(7),
            serde_json::json!(-7),
            serde_json::json!(u64::MAX),
            serde_json::json!(1.5),
            serde_json::json!("text"),
            serde_json::json!(["a", "b"]),
            serde_json::json!([1]),
            serde_json::json!({"a": "b"}),
            serde_json::json!({"a": 1}),
        ];
        for value in &values {
            same::<String>(value);
            same::<bool>(value);
            same::<f64>(value);
            same::<i64>(value);
            same::<u32>(value);
            same::<u64>(value);
            same::<Option<String>>(value);
            same::<Vec<String>>(value);
            same::<Attributes>(value);
            same::<Body>(value);
            same::<MessageId>(value);
        }
        same::<MessageId>(&serde_json::json!("x".repeat(37)));
    }
}
