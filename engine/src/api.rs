//! SQS actions as data: one request type and one response type per action, with AWS's JSON member
//! names (AWS JSON 1.0 protocol, `X-Amz-Target: AmazonSQS.<Action>`), so that a request serialises
//! exactly as an SDK sends it and a response exactly as SQS answers.
//!
//! A [`Request`] serialises adjacently tagged, `{"call": "SendMessage", "input": {...}}`, which is
//! also the step format of `sqs-sim run` scenario files.

use serde::de;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

pub use crate::receipt::{AnyReceiptHandle, ReceiptHandle};

/// A string-to-string attribute map (queue attributes, message system attributes), sorted so that
/// output is deterministic.
pub type Attributes = BTreeMap<String, String>;

/// A MessageId. AWS's are UUIDs, 36 characters: it is kept inline (a `Copy` value, no
/// allocation), so the stored message, its events and the responses each carry their own. It
/// reads as a `&str` and displays and serialises as that text. Any text of at most
/// [`MessageId::MAX`] bytes is one (scripts and tests may use short ids). It hashes as its text
/// and borrows as `&str`, so maps keyed by MessageId are looked up with a plain `&str`.
#[derive(Clone, Copy, Eq)]
pub struct MessageId {
    len: u8,
    text: [u8; MessageId::MAX],
}

impl MessageId {
    /// The longest MessageId in bytes (a UUID's length).
    pub const MAX: usize = 36;

    /// `text` as a MessageId, `None` if it is longer than [`MessageId::MAX`].
    pub fn new(text: &str) -> Option<Self> {
        let mut id = MessageId {
            len: u8::try_from(text.len()).ok()?,
            text: [0; MessageId::MAX],
        };
        id.text
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        Some(id)
    }

    /// A UUID's 36 ASCII characters (the engine's own ids: no text to check).
    pub(crate) fn from_uuid(text: [u8; MessageId::MAX]) -> Self {
        debug_assert!(text.is_ascii());
        MessageId {
            len: MessageId::MAX as u8,
            text,
        }
    }

    /// The text's bytes, unchecked (`as_str` checks the text is UTF-8 each time).
    pub fn as_bytes(&self) -> &[u8] {
        &self.text[..self.len as usize]
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text[..self.len as usize]).expect("made from a str")
    }
}

/// Compares as the derived `==` would (length, then all the bytes; the unused tail is always
/// zero), word by word: wasm's `memcmp`, which the derived one calls, walks byte by byte, and ids
/// are compared on every map lookup.
impl PartialEq for MessageId {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && same_bytes(&self.text, &other.text)
    }
}

/// Whether two byte arrays are equal, read 8 bytes at a time and folded with xor, so that LLVM
/// does not merge the comparisons back into a `memcmp` call (a byte loop in wasm).
pub(crate) fn same_bytes<const N: usize>(a: &[u8; N], b: &[u8; N]) -> bool {
    let (a_words, b_words) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail = (a_words.remainder().iter())
        .zip(b_words.remainder())
        .fold(0, |diff, (x, y)| diff | (x ^ y));
    let word = |bytes: &[u8]| {
        let mut word = [0; 8];
        word.copy_from_slice(bytes);
        u64::from_ne_bytes(word)
    };
    let words = a_words
        .zip(b_words)
        .fold(0, |diff, (x, y)| diff | (word(x) ^ word(y)));
    words == 0 && tail == 0
}

/// The empty id, as an empty `String` was.
impl Default for MessageId {
    fn default() -> Self {
        MessageId {
            len: 0,
            text: [0; MessageId::MAX],
        }
    }
}

/// Panics if `text` is longer than [`MessageId::MAX`] (see [`MessageId::new`]).
impl From<&str> for MessageId {
    fn from(text: &str) -> Self {
        MessageId::new(text).expect("a MessageId is at most 36 bytes")
    }
}

/// Hashes as its text's `str` does (bytes, then 0xff), so `Borrow<str>` lookups work, without
/// checking the text is UTF-8 on every hash.
impl std::hash::Hash for MessageId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(self.as_bytes());
        state.write_u8(0xff);
    }
}

impl std::borrow::Borrow<str> for MessageId {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl std::ops::Deref for MessageId {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for MessageId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MessageId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        MessageId::new(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("a MessageId is at most 36 bytes: {text}"))
        })
    }
}

/// A QueueUrl, as requests carry it and CreateQueue and GetQueueUrl answer it. The text is shared
/// (a clone counts a reference instead of copying it), and a URL this engine handed out also
/// knows which queue it names, so an action finds its queue without parsing the text (every call
/// names one). It reads, compares, displays and serialises as its text; a URL made from text is
/// resolved by its text.
#[derive(Clone)]
pub struct QueueUrl {
    /// `None`: the empty text, which `Default` (`..Default::default()` in every request built
    /// by hand) makes without an allocation, as an empty `String` did.
    text: Option<Arc<str>>,
    /// The uid of the queue that issued this very text ([`QueueUrl::FROM_TEXT`]: none).
    queue: u32,
}

impl QueueUrl {
    /// No queue issued the text.
    const FROM_TEXT: u32 = u32::MAX;

    /// The URL queue `uid` hands out.
    pub(crate) fn issued(text: String, uid: u32) -> Self {
        QueueUrl {
            text: Some(Arc::from(text)),
            queue: uid,
        }
    }

    /// The uid of the queue that issued it, if `own` is that queue's URL: the very same shared
    /// text, which no other queue can hold (uids are never reused, and the text lives as long as
    /// this URL does). Anything else is resolved by its text.
    pub(crate) fn issued_by(&self, own: Option<&QueueUrl>) -> Option<u32> {
        match (own.and_then(|own| own.text.as_ref()), &self.text) {
            (Some(own), Some(text)) if Arc::ptr_eq(own, text) => Some(self.queue),
            _ => None,
        }
    }

    /// The uid it was issued by, if any (to look up the `own` URL of [`QueueUrl::issued_by`]).
    pub(crate) fn queue(&self) -> u32 {
        self.queue
    }
}

/// The empty text.
impl Default for QueueUrl {
    fn default() -> Self {
        QueueUrl {
            text: None,
            queue: QueueUrl::FROM_TEXT,
        }
    }
}

impl From<&str> for QueueUrl {
    fn from(text: &str) -> Self {
        QueueUrl {
            text: Some(Arc::from(text)),
            queue: QueueUrl::FROM_TEXT,
        }
    }
}

impl From<String> for QueueUrl {
    fn from(text: String) -> Self {
        QueueUrl {
            text: Some(Arc::from(text)),
            queue: QueueUrl::FROM_TEXT,
        }
    }
}

impl std::ops::Deref for QueueUrl {
    type Target = str;

    fn deref(&self) -> &str {
        self.text.as_deref().unwrap_or_default()
    }
}

/// Compares as its text, however it was made.
impl PartialEq for QueueUrl {
    fn eq(&self, other: &QueueUrl) -> bool {
        **self == **other
    }
}

impl Eq for QueueUrl {}

/// Compares with text, as tests write a URL.
impl PartialEq<&str> for QueueUrl {
    fn eq(&self, other: &&str) -> bool {
        **self == **other
    }
}

impl fmt::Display for QueueUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for QueueUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// `impl Serialize` as the text (`Deref<Target = str>`) and `impl Deserialize` from it
/// (`From<&str>`), for the text types that any text makes.
macro_rules! serde_as_text {
    ($($ty:ty),*) => {
        $(impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                Ok(<$ty>::from(&*text))
            }
        })*
    };
}

serde_as_text!(QueueUrl, Body);

/// A message body. A short text (up to [`Body::INLINE`] bytes: most bodies of the playground and
/// of its scenarios) is kept inline, so sending, receiving and deleting it allocates nothing; a
/// longer one is shared (`Arc<str>`) by the send request, the stored message and every answer
/// that returns it, so a receive does not copy it. It reads as a `&str` and displays and
/// serialises as that text.
#[derive(Clone)]
pub struct Body(Text);

#[derive(Clone)]
enum Text {
    Inline { len: u8, bytes: [u8; Body::INLINE] },
    Shared(Arc<str>),
}

impl Body {
    /// The longest text kept inline, in bytes (a body takes 24 bytes either way).
    pub const INLINE: usize = 22;

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Unchecked: a check would cost ~150 instructions per read of a short body, and
            // readers (the simulation's poison marker, ledger keys) read every body.
            // SAFETY: the inline bytes are copied from a `&str` (`From<&str>`, its only maker),
            // whole, and never changed, so they are UTF-8.
            Text::Inline { .. } => unsafe { std::str::from_utf8_unchecked(self.as_bytes()) },
            Text::Shared(text) => text,
        }
    }

    /// The text's bytes, without the UTF-8 check (what digests and sizes read).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Text::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Text::Shared(text) => text.as_bytes(),
        }
    }

    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Body {
    fn default() -> Self {
        Body::from("")
    }
}

impl std::ops::Deref for Body {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Body {
    fn from(text: &str) -> Self {
        let mut bytes = [0; Body::INLINE];
        match bytes.get_mut(..text.len()) {
            Some(inline) => {
                inline.copy_from_slice(text.as_bytes());
                Body(Text::Inline {
                    len: text.len() as u8,
                    bytes,
                })
            }
            None => Body(Text::Shared(Arc::from(text))),
        }
    }
}

impl From<String> for Body {
    fn from(text: String) -> Self {
        if text.len() <= Body::INLINE {
            Body::from(text.as_str())
        } else {
            Body(Text::Shared(Arc::from(text)))
        }
    }
}

/// Compares, hashes and orders as its text, however it is kept.
impl PartialEq for Body {
    fn eq(&self, other: &Body) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Body {}

impl std::hash::Hash for Body {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for Body {
    fn partial_cmp(&self, other: &Body) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Body {
    fn cmp(&self, other: &Body) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

/// Compares with text, as tests and scripts write a body.
impl PartialEq<&str> for Body {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl fmt::Display for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// An MD5 digest (MD5OfMessageBody, MD5OfBody): 16 bytes that serialise as the 32 lower-case
/// hex digits AWS sends, formatted only when shown.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Md5(pub [u8; 16]);

impl Md5 {
    /// The 32 hex digits.
    fn digits(&self) -> [u8; 32] {
        let mut digits = [0; 32];
        for (pair, &byte) in digits.chunks_exact_mut(2).zip(&self.0) {
            pair.copy_from_slice(&crate::hash::hex_pair(byte));
        }
        digits
    }
}

impl fmt::Display for Md5 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.digits()).expect("hex digits are ASCII"))
    }
}

impl fmt::Debug for Md5 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Md5({self})")
    }
}

/// Compares with hex digits, as tests and scripts write a digest.
impl PartialEq<&str> for Md5 {
    fn eq(&self, other: &&str) -> bool {
        self.digits() == other.as_bytes()
    }
}

impl Serialize for Md5 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(std::str::from_utf8(&self.digits()).expect("hex digits are ASCII"))
    }
}

impl<'de> Deserialize<'de> for Md5 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let hex = text.len() == 32 && text.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
        if !hex {
            return Err(serde::de::Error::custom(format!(
                "not an MD5 digest (32 lower-case hex digits): {text}"
            )));
        }
        Ok(Md5(std::array::from_fn(|i| {
            u8::from_str_radix(&text[2 * i..2 * i + 2], 16).expect("hex digits")
        })))
    }
}

/// The actions, each listed once with its input type: [`Request`], [`Request::action`] and
/// [`Request::from_input`] come from this.
macro_rules! actions {
    ($($action:ident($input:ident)),* $(,)?) => {
        /// One SQS action with its input; written adjacently tagged (see [`ToJson`]).
        #[derive(Clone, Debug, PartialEq)]
        #[allow(missing_docs)]
        pub enum Request {
            $($action($input),)*
        }

        impl Request {
            /// The action's name as AWS spells it (`"ReceiveMessage"`).
            pub fn action(&self) -> &'static str {
                match self {
                    $(Request::$action(_) => stringify!($action),)*
                }
            }

            /// Every action's name, in the order of [`Request::action_index`].
            pub const ACTIONS: &'static [&'static str] = &[$(stringify!($action)),*];

            /// Where [`Request::action`] is in [`Request::ACTIONS`]: a caller counting calls
            /// per action indexes an array rather than hashing or comparing names.
            pub fn action_index(&self) -> usize {
                enum Index {
                    $($action,)*
                }
                match self {
                    $(Request::$action(_) => Index::$action as usize,)*
                }
            }

            /// The input as JSON.
            fn input_json(&self) -> Value {
                match self {
                    $(Request::$action(input) => input.to_json(),)*
                }
            }

            /// Reads `input` as the input of the action named `action` (`"SendMessage"`): the
            /// action's request with default members, then its members filled in place, so
            /// that no action's input is moved into its request (a copy per action cost the
            /// browser bundle ~1 KB).
            pub fn from_input(action: &str, input: Value) -> Result<Request, serde_json::Error> {
                let mut request = match action {
                    $(stringify!($action) => Request::$action(Default::default()),)*
                    _ => return Err(de::Error::unknown_variant(action, Self::ACTIONS)),
                };
                match &mut request {
                    $(Request::$action(members) => members.fill(Input(input))?,)*
                }
                Ok(request)
            }
        }
    };
}

actions!(
    CreateQueue(CreateQueueInput),
    DeleteQueue(QueueUrlInput),
    ListQueues(ListQueuesInput),
    GetQueueUrl(GetQueueUrlInput),
    GetQueueAttributes(GetQueueAttributesInput),
    SetQueueAttributes(SetQueueAttributesInput),
    PurgeQueue(QueueUrlInput),
    SendMessage(SendMessageInput),
    SendMessageBatch(SendMessageBatchInput),
    ReceiveMessage(ReceiveMessageInput),
    DeleteMessage(DeleteMessageInput),
    DeleteMessageBatch(DeleteMessageBatchInput),
    ChangeMessageVisibility(ChangeMessageVisibilityInput),
    ChangeMessageVisibilityBatch(ChangeMessageVisibilityBatchInput),
    ListDeadLetterSourceQueues(ListDeadLetterSourceQueuesInput),
    StartMessageMoveTask(StartMessageMoveTaskInput),
    ListMessageMoveTasks(ListMessageMoveTasksInput),
    CancelMessageMoveTask(CancelMessageMoveTaskInput),
);

/// A JSON object read one member at a time, for the readers written by hand: serde's derived
/// struct readers cost the browser bundle a field matcher, a map reader and a sequence reader per
/// type, where these share one small generic step per member type.
pub struct Input(pub Value);

impl Input {
    /// Reads a value with `read`, through a JSON value (one small generic step per deserializer).
    pub fn read<'de, D: Deserializer<'de>, T>(
        deserializer: D,
        read: fn(Input) -> Result<T, serde_json::Error>,
    ) -> Result<T, D::Error> {
        read(Input(Value::deserialize(deserializer)?)).map_err(de::Error::custom)
    }

    /// Takes the member `name` out of the object, with serde's error when it is missing.
    ///
    /// Never inlined, here and in [`Input::field_or`]: one copy per member type, called by every
    /// reader, is smaller than a copy in each reader.
    #[inline(never)]
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

    /// Takes the member `name` out of the object, or `default` when it is missing.
    #[inline(never)]
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

/// A member's place, filled from JSON by [`read_members`]: every type [`FromJson`] reads is one,
/// so the table-driven reader calls one small function per member type through a vtable.
pub trait ReadInto {
    /// Reads `value` into the place.
    fn read_into(&mut self, value: Value) -> Result<(), serde_json::Error>;
}

impl<T: FromJson> ReadInto for T {
    fn read_into(&mut self, value: Value) -> Result<(), serde_json::Error> {
        *self = T::from_json(value)?;
        Ok(())
    }
}

/// How [`members!`] reads each member: its place, and whether it must be there. Each says by
/// its name what [`Input`]'s method of that name reads (a missing `optional` member is `None`,
/// a missing `field_or_default` one its type's default), and takes the type that method takes.
#[doc(hidden)]
pub mod read {
    use super::{FromJson, ReadInto};

    /// A member that must be there.
    pub fn field<T: FromJson>(place: &mut T) -> (&mut dyn ReadInto, bool) {
        (place, true)
    }

    /// A member left at its default when missing.
    pub fn field_or_default<T: FromJson + Default>(place: &mut T) -> (&mut dyn ReadInto, bool) {
        (place, false)
    }

    /// An `Option` member, `None` when missing.
    pub fn optional<T: FromJson>(place: &mut Option<T>) -> (&mut dyn ReadInto, bool) {
        (place, false)
    }
}

/// Takes the members `names` out of `input` into their `places` (each with whether it must be
/// there), in order, stopping at the first error: serde's for a missing or mistyped member.
/// One routine for every reader [`members!`] declares, driven by its table of names and places,
/// where a reader per type, each call of it generic in the member's type, cost the browser
/// bundle ~10 KB (raw) more.
#[inline(never)]
pub fn read_members(
    input: Input,
    names: &[&'static str],
    places: &mut [(&mut dyn ReadInto, bool)],
) -> Result<(), serde_json::Error> {
    let Value::Object(mut members) = input.0 else {
        return Err(de::Error::custom("expected a JSON object"));
    };
    for (name, (place, required)) in names.iter().zip(places) {
        match members.remove(*name) {
            Some(member) => place.read_into(member)?,
            None if *required => return Err(de::Error::missing_field(name)),
            None => {}
        }
    }
    Ok(())
}

/// A value read from JSON by hand, with the errors serde gives: serde's readers, one per type
/// and JSON value deserializer, cost the browser bundle more than these matches on a `Value`.
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
#[inline(never)]
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

/// A plain loop: collecting into a `Result<Vec<T>, _>` cost the browser bundle ~300 bytes more
/// per item type (its adapter and in-place collection paths).
impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        let Value::Array(items) = value else {
            return Err(invalid_type(&value, "a sequence"));
        };
        let mut list = Vec::with_capacity(items.len());
        for item in items {
            list.push(T::from_json(item)?);
        }
        Ok(list)
    }
}

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

/// A value as JSON, written by hand (see [`Output`]).
pub trait ToJson {
    /// The JSON value.
    fn to_json(&self) -> Value;
}

/// A JSON object written one member at a time, for the writers declared by [`members!`] and
/// [`writers!`]: each member is one call of a small step shared by every writer, where serde's
/// derived writers cost the browser bundle a serializer per type and member.
#[derive(Default)]
pub struct Output(serde_json::Map<String, Value>);

impl Output {
    /// Writes the member `name`.
    pub fn field<T: ToJson + ?Sized>(&mut self, name: &'static str, value: &T) {
        self.value(name, value.to_json());
    }

    /// Writes the member `name` as `value`, already JSON.
    #[inline(never)]
    pub fn value(&mut self, name: &'static str, value: Value) {
        self.0.insert(name.to_string(), value);
    }
}

/// How [`writers!`] writes each member: as itself, or (`None`) not at all. Each says by its
/// name when the member is written, and takes the type it is for.
#[doc(hidden)]
pub mod write {
    use super::ToJson;

    /// Always written (`null` when `None`).
    pub fn field<T: ToJson>(value: &T) -> Option<&dyn ToJson> {
        Some(value)
    }

    /// Always written, as [`super::Input::field_or_default`] reads it back.
    pub fn field_or_default<T: ToJson>(value: &T) -> Option<&dyn ToJson> {
        Some(value)
    }

    /// Written when it is `Some`.
    pub fn optional<T: ToJson>(value: &Option<T>) -> Option<&dyn ToJson> {
        value.as_ref().map(|value| value as &dyn ToJson)
    }

    /// A list written unless it is empty.
    pub fn non_empty<T: ToJson>(value: &Vec<T>) -> Option<&dyn ToJson> {
        (!value.is_empty()).then_some(value as &dyn ToJson)
    }
}

/// The object of the members `names` with their `values` (`None`: left out). One routine for
/// every writer [`writers!`] declares, driven by its table of names and values, where a writer
/// per type, each member's write generic in its type, cost the browser bundle more.
#[inline(never)]
pub fn write_members(names: &[&'static str], values: &[Option<&dyn ToJson>]) -> Value {
    let mut out = Output::default();
    for (name, value) in names.iter().zip(values) {
        if let Some(value) = value {
            out.value(name, value.to_json());
        }
    }
    out.into()
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

/// A plain loop, as `Vec<T>`'s reader.
impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        let mut items = Vec::with_capacity(self.len());
        for item in self {
            items.push(item.to_json());
        }
        Value::Array(items)
    }
}

impl<T: ToJson> ToJson for BTreeMap<String, T> {
    fn to_json(&self) -> Value {
        // Inserted one by one: collecting into a map would sort (a stable sort, more code).
        let mut map = serde_json::Map::new();
        for (name, value) in self {
            map.insert(name.clone(), value.to_json());
        }
        Value::Object(map)
    }
}

/// Each type's reader and writer, with their `impl Deserialize` and `impl Serialize`, from its
/// members: `Type { field: field("Member"), optional: optional("Member") }`. The same name says
/// how a member is read ([`read`]: as [`Input`]'s method of that name) and written ([`write`]).
/// A reader is a table of the members' names and places for [`read_members`], a writer one of
/// names and values for [`write_members`].
#[macro_export]
macro_rules! members {
    ($($ty:ident { $($field:ident: $how:ident($member:literal)),* $(,)? })*) => {
        $(impl $ty {
            fn read(input: $crate::api::Input) -> Result<Self, serde_json::Error> {
                let mut value = $ty { $($field: Default::default()),* };
                value.fill(input)?;
                Ok(value)
            }

            /// Reads `input`'s members into this value's (each left as it is when missing and
            /// not required).
            fn fill(&mut self, input: $crate::api::Input) -> Result<(), serde_json::Error> {
                $crate::api::read_members(
                    input,
                    &[$($member),*],
                    &mut [$($crate::api::read::$how(&mut self.$field)),*],
                )
            }
        }

        $crate::read_by_hand!($ty);)*
        $crate::writers! { $($ty { $($field: $how($member)),* })* }
    };
}

/// Each type's writer ([`write_members`]) and `impl Serialize` through it, from its members, as
/// [`members!`] has them.
#[macro_export]
macro_rules! writers {
    ($($ty:ident { $($field:ident: $how:ident($member:literal)),* $(,)? })*) => {
        $(impl $crate::api::ToJson for $ty {
            fn to_json(&self) -> serde_json::Value {
                $crate::api::write_members(
                    &[$($member),*],
                    &[$($crate::api::write::$how(&self.$field)),*],
                )
            }
        }

        $crate::write_by_hand!($ty);)*
    };
}

/// `impl Deserialize` and [`FromJson`] through each type's hand-written
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

/// `impl Serialize` through each type's [`ToJson`]: one small generic step per serializer, where
/// serde's derive compiles a serializer per type and member into the browser bundle. JSON
/// objects come out with their members sorted by name, as every writer here has always written
/// them (through a `serde_json::Value`, whose maps are sorted).
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

/// `{"call": "SendMessage", "input": {...}}`.
impl ToJson for Request {
    fn to_json(&self) -> Value {
        let mut out = Output::default();
        out.field("call", self.action());
        out.value("input", self.input_json());
        out.into()
    }
}

write_by_hand!(Request);

members! {
    QueueUrlInput { queue_url: field("QueueUrl") }
    CreateQueueInput {
        queue_name: field("QueueName"),
        attributes: optional("Attributes"),
        tags: optional("tags"),
    }
    ListQueuesInput {
        queue_name_prefix: optional("QueueNamePrefix"),
        next_token: optional("NextToken"),
        max_results: optional("MaxResults"),
    }
    GetQueueUrlInput {
        queue_name: field("QueueName"),
        queue_owner_a_w_s_account_id: optional("QueueOwnerAWSAccountId"),
    }
    GetQueueAttributesInput {
        queue_url: field("QueueUrl"),
        attribute_names: optional("AttributeNames"),
    }
    SetQueueAttributesInput { queue_url: field("QueueUrl"), attributes: field("Attributes") }
    MessageAttributeValue {
        data_type: field("DataType"),
        string_value: optional("StringValue"),
        binary_value: optional("BinaryValue"),
    }
    SendMessageInput {
        queue_url: field("QueueUrl"),
        message_body: field("MessageBody"),
        delay_seconds: optional("DelaySeconds"),
        message_attributes: optional("MessageAttributes"),
        message_system_attributes: optional("MessageSystemAttributes"),
        message_deduplication_id: optional("MessageDeduplicationId"),
        message_group_id: optional("MessageGroupId"),
    }
    SendMessageBatchInput { queue_url: field("QueueUrl"), entries: field("Entries") }
    ReceiveMessageInput {
        queue_url: field("QueueUrl"),
        attribute_names: optional("AttributeNames"),
        message_system_attribute_names: optional("MessageSystemAttributeNames"),
        message_attribute_names: optional("MessageAttributeNames"),
        max_number_of_messages: optional("MaxNumberOfMessages"),
        visibility_timeout: optional("VisibilityTimeout"),
        wait_time_seconds: optional("WaitTimeSeconds"),
        receive_request_attempt_id: optional("ReceiveRequestAttemptId"),
    }
    DeleteMessageInput { queue_url: field("QueueUrl"), receipt_handle: field("ReceiptHandle") }
    DeleteMessageBatchInput { queue_url: field("QueueUrl"), entries: field("Entries") }
    DeleteMessageBatchEntry { id: field("Id"), receipt_handle: field("ReceiptHandle") }
    ChangeMessageVisibilityInput {
        queue_url: field("QueueUrl"),
        receipt_handle: field("ReceiptHandle"),
        visibility_timeout: field("VisibilityTimeout"),
    }
    ChangeMessageVisibilityBatchInput { queue_url: field("QueueUrl"), entries: field("Entries") }
    ChangeMessageVisibilityBatchEntry {
        id: field("Id"),
        receipt_handle: field("ReceiptHandle"),
        visibility_timeout: optional("VisibilityTimeout"),
    }
    ListDeadLetterSourceQueuesInput {
        queue_url: field("QueueUrl"),
        next_token: optional("NextToken"),
        max_results: optional("MaxResults"),
    }
    StartMessageMoveTaskInput {
        source_arn: field("SourceArn"),
        destination_arn: optional("DestinationArn"),
        max_number_of_messages_per_second: optional("MaxNumberOfMessagesPerSecond"),
    }
    ListMessageMoveTasksInput {
        source_arn: field("SourceArn"),
        max_results: optional("MaxResults"),
    }
    CancelMessageMoveTaskInput { task_handle: field("TaskHandle") }
}

/// An adjacently tagged `{TAG: NAME, "input": INPUT}` object as its NAME and INPUT, with serde's
/// own errors for a missing member.
pub fn split_tagged(value: Value, tag: &'static str) -> Result<(String, Value), serde_json::Error> {
    let mut object = Input(value);
    let name = object.field(tag)?;
    let input = object.field("input")?;
    Ok((name, input))
}

/// The successful answer to a [`Request`]; serialises untagged, as AWS's response body.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
#[allow(missing_docs)]
pub enum Response {
    CreateQueue(QueueUrlOutput),
    GetQueueUrl(QueueUrlOutput),
    ListQueues(ListQueuesOutput),
    GetQueueAttributes(GetQueueAttributesOutput),
    SendMessage(SendMessageOutput),
    SendMessageBatch(SendMessageBatchOutput),
    ReceiveMessage(ReceiveMessageOutput),
    /// DeleteMessageBatch and ChangeMessageVisibilityBatch.
    Batch(BatchOutput),
    ListDeadLetterSourceQueues(ListDeadLetterSourceQueuesOutput),
    StartMessageMoveTask(StartMessageMoveTaskOutput),
    ListMessageMoveTasks(ListMessageMoveTasksOutput),
    CancelMessageMoveTask(CancelMessageMoveTaskOutput),
    /// Actions whose AWS response has no members (`{}`).
    Empty(Empty),
}

/// As AWS's response body: the output's members.
impl ToJson for Response {
    fn to_json(&self) -> Value {
        match self {
            Response::CreateQueue(output) | Response::GetQueueUrl(output) => output.to_json(),
            Response::ListQueues(output) => output.to_json(),
            Response::GetQueueAttributes(output) => output.to_json(),
            Response::SendMessage(output) => output.to_json(),
            Response::SendMessageBatch(output) => output.to_json(),
            Response::ReceiveMessage(output) => output.to_json(),
            Response::Batch(output) => output.to_json(),
            Response::ListDeadLetterSourceQueues(output) => output.to_json(),
            Response::StartMessageMoveTask(output) => output.to_json(),
            Response::ListMessageMoveTasks(output) => output.to_json(),
            Response::CancelMessageMoveTask(output) => output.to_json(),
            Response::Empty(output) => output.to_json(),
        }
    }
}

write_by_hand!(Response, Empty);

impl ToJson for Empty {
    fn to_json(&self) -> Value {
        Value::Object(serde_json::Map::new())
    }
}

writers! {
    QueueUrlOutput { queue_url: field("QueueUrl") }
    ListQueuesOutput { queue_urls: optional("QueueUrls"), next_token: optional("NextToken") }
    GetQueueAttributesOutput { attributes: optional("Attributes") }
    SendMessageOutput {
        message_id: field("MessageId"),
        md5_of_message_body: field("MD5OfMessageBody"),
        md5_of_message_attributes: optional("MD5OfMessageAttributes"),
        md5_of_message_system_attributes: optional("MD5OfMessageSystemAttributes"),
        sequence_number: optional("SequenceNumber"),
    }
    SendMessageBatchOutput { successful: non_empty("Successful"), failed: non_empty("Failed") }
    SendMessageBatchResultEntry {
        id: field("Id"),
        message_id: field("MessageId"),
        md5_of_message_body: field("MD5OfMessageBody"),
        md5_of_message_attributes: optional("MD5OfMessageAttributes"),
        md5_of_message_system_attributes: optional("MD5OfMessageSystemAttributes"),
        sequence_number: optional("SequenceNumber"),
    }
    BatchResultErrorEntry {
        id: field("Id"),
        sender_fault: field("SenderFault"),
        code: field("Code"),
        message: optional("Message"),
    }
    ReceiveMessageOutput { messages: optional("Messages") }
    Message {
        message_id: field("MessageId"),
        receipt_handle: field("ReceiptHandle"),
        md5_of_body: field("MD5OfBody"),
        body: field("Body"),
        attributes: optional("Attributes"),
        md5_of_message_attributes: optional("MD5OfMessageAttributes"),
        message_attributes: optional("MessageAttributes"),
    }
    BatchOutput { successful: non_empty("Successful"), failed: non_empty("Failed") }
    BatchResultEntry { id: field("Id") }
    ListDeadLetterSourceQueuesOutput { queue_urls: field("queueUrls"), next_token: optional("NextToken") }
    StartMessageMoveTaskOutput { task_handle: field("TaskHandle") }
    ListMessageMoveTasksOutput { results: field("Results") }
    MessageMoveTask {
        task_handle: optional("TaskHandle"),
        status: field("Status"),
        source_arn: field("SourceArn"),
        destination_arn: optional("DestinationArn"),
        max_number_of_messages_per_second: optional("MaxNumberOfMessagesPerSecond"),
        approximate_number_of_messages_moved: field("ApproximateNumberOfMessagesMoved"),
        approximate_number_of_messages_to_move: field("ApproximateNumberOfMessagesToMove"),
        failure_reason: optional("FailureReason"),
        started_timestamp: field("StartedTimestamp"),
    }
    CancelMessageMoveTaskOutput {
        approximate_number_of_messages_moved: field("ApproximateNumberOfMessagesMoved"),
    }
}

/// `{}`: the response of DeleteQueue, SetQueueAttributes, PurgeQueue, DeleteMessage and
/// ChangeMessageVisibility.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// Input of the actions that only name a queue (DeleteQueue, PurgeQueue).
#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct QueueUrlInput {
    pub queue_url: QueueUrl,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct CreateQueueInput {
    pub queue_name: String,
    pub attributes: Option<Attributes>,
    /// Lower-case on the wire, as in AWS's model.
    pub tags: Option<Attributes>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct QueueUrlOutput {
    pub queue_url: QueueUrl,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ListQueuesInput {
    pub queue_name_prefix: Option<String>,
    pub next_token: Option<String>,
    pub max_results: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct ListQueuesOutput {
    #[serde(default)]
    pub queue_urls: Option<Vec<String>>,
    #[serde(default)]
    pub next_token: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct GetQueueUrlInput {
    pub queue_name: String,
    pub queue_owner_a_w_s_account_id: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct GetQueueAttributesInput {
    pub queue_url: QueueUrl,
    pub attribute_names: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct GetQueueAttributesOutput {
    #[serde(default)]
    pub attributes: Option<Attributes>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SetQueueAttributesInput {
    pub queue_url: QueueUrl,
    pub attributes: Attributes,
}

/// A message attribute value: `{"DataType": "String", "StringValue": "..."}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct MessageAttributeValue {
    pub data_type: String,
    pub string_value: Option<String>,
    /// Base64 on the wire.
    pub binary_value: Option<String>,
}

/// Message attributes by name, sorted (the MD5 of attributes is computed in name order anyway).
pub type MessageAttributes = BTreeMap<String, MessageAttributeValue>;

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SendMessageInput {
    pub queue_url: QueueUrl,
    pub message_body: Body,
    pub delay_seconds: Option<i64>,
    pub message_attributes: Option<MessageAttributes>,
    pub message_system_attributes: Option<MessageAttributes>,
    pub message_deduplication_id: Option<String>,
    pub message_group_id: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct SendMessageOutput {
    pub message_id: MessageId,
    #[serde(rename = "MD5OfMessageBody")]
    pub md5_of_message_body: Md5,
    #[serde(rename = "MD5OfMessageAttributes", default)]
    pub md5_of_message_attributes: Option<String>,
    #[serde(rename = "MD5OfMessageSystemAttributes", default)]
    pub md5_of_message_system_attributes: Option<String>,
    #[serde(default)]
    pub sequence_number: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SendMessageBatchInput {
    pub queue_url: QueueUrl,
    pub entries: Vec<SendMessageBatchEntry>,
}

/// One message of a SendMessageBatch. The members an entry rarely carries are boxed together
/// ([`SendMessageBatchEntryExtras`], absent when none is set), so that ten entries take under
/// 1 KiB: a larger buffer takes glibc's allocator down its slow path on every batch.
#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SendMessageBatchEntry {
    pub id: String,
    pub message_body: Body,
    pub delay_seconds: Option<i64>,
    /// MessageAttributes, MessageSystemAttributes and MessageDeduplicationId, written in
    /// their place among the members.
    pub extras: Option<Box<SendMessageBatchEntryExtras>>,
    pub message_group_id: Option<String>,
}

/// The members of a [`SendMessageBatchEntry`] that are seldom set.
#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SendMessageBatchEntryExtras {
    pub message_attributes: Option<MessageAttributes>,
    pub message_system_attributes: Option<MessageAttributes>,
    pub message_deduplication_id: Option<String>,
}

impl SendMessageBatchEntry {
    /// Its MessageAttributes, if any.
    pub fn message_attributes(&self) -> Option<&MessageAttributes> {
        self.extras.as_ref()?.message_attributes.as_ref()
    }

    /// Its MessageDeduplicationId, if any.
    pub fn message_deduplication_id(&self) -> Option<&str> {
        self.extras.as_ref()?.message_deduplication_id.as_deref()
    }

    fn read(input: Input) -> Result<Self, serde_json::Error> {
        let mut entry = SendMessageBatchEntry::default();
        let mut extras = SendMessageBatchEntryExtras::default();
        read_members(
            input,
            &SendMessageBatchEntry::MEMBERS,
            &mut [
                read::field(&mut entry.id),
                read::field(&mut entry.message_body),
                read::optional(&mut entry.delay_seconds),
                read::optional(&mut extras.message_attributes),
                read::optional(&mut extras.message_system_attributes),
                read::optional(&mut extras.message_deduplication_id),
                read::optional(&mut entry.message_group_id),
            ],
        )?;
        // Boxed only when set: most entries have none of them.
        entry.extras = (extras != SendMessageBatchEntryExtras::default()).then(|| Box::new(extras));
        Ok(entry)
    }

    /// The members' names, in AWS's order (the extras' in their place).
    const MEMBERS: [&'static str; 7] = [
        "Id",
        "MessageBody",
        "DelaySeconds",
        "MessageAttributes",
        "MessageSystemAttributes",
        "MessageDeduplicationId",
        "MessageGroupId",
    ];
}

read_by_hand!(SendMessageBatchEntry);

/// Written with the extras' members in their place, as AWS's shape has them.
impl ToJson for SendMessageBatchEntry {
    fn to_json(&self) -> Value {
        let extra = |member: fn(&SendMessageBatchEntryExtras) -> Option<&dyn ToJson>| {
            self.extras.as_deref().and_then(member)
        };
        write_members(
            &SendMessageBatchEntry::MEMBERS,
            &[
                write::field(&self.id),
                write::field(&self.message_body),
                write::optional(&self.delay_seconds),
                extra(|e| write::optional(&e.message_attributes)),
                extra(|e| write::optional(&e.message_system_attributes)),
                extra(|e| write::optional(&e.message_deduplication_id)),
                write::optional(&self.message_group_id),
            ],
        )
    }
}

write_by_hand!(SendMessageBatchEntry);

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct SendMessageBatchOutput {
    #[serde(default)]
    pub successful: Vec<SendMessageBatchResultEntry>,
    #[serde(default)]
    pub failed: Vec<BatchResultErrorEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct SendMessageBatchResultEntry {
    pub id: String,
    pub message_id: MessageId,
    #[serde(rename = "MD5OfMessageBody")]
    pub md5_of_message_body: Md5,
    #[serde(rename = "MD5OfMessageAttributes", default)]
    pub md5_of_message_attributes: Option<String>,
    #[serde(rename = "MD5OfMessageSystemAttributes", default)]
    pub md5_of_message_system_attributes: Option<String>,
    #[serde(default)]
    pub sequence_number: Option<String>,
}

/// A per-entry failure of a batch action (HTTP 200 overall).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct BatchResultErrorEntry {
    pub id: String,
    pub sender_fault: bool,
    pub code: String,
    #[serde(default)]
    pub message: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ReceiveMessageInput {
    pub queue_url: QueueUrl,
    /// Deprecated by AWS in favour of `MessageSystemAttributeNames`; the union of both applies.
    pub attribute_names: Option<Vec<String>>,
    pub message_system_attribute_names: Option<Vec<String>>,
    pub message_attribute_names: Option<Vec<String>>,
    pub max_number_of_messages: Option<i64>,
    pub visibility_timeout: Option<i64>,
    pub wait_time_seconds: Option<i64>,
    pub receive_request_attempt_id: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct ReceiveMessageOutput {
    /// Absent (not empty) when no message was received, as AWS answers.
    #[serde(default)]
    pub messages: Option<Vec<Message>>,
}

/// A received message.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct Message {
    pub message_id: MessageId,
    /// A value, written as its text: a client hands it back to DeleteMessage as it is.
    pub receipt_handle: ReceiptHandle,
    #[serde(rename = "MD5OfBody")]
    pub md5_of_body: Md5,
    pub body: Body,
    #[serde(default)]
    pub attributes: Option<Attributes>,
    #[serde(rename = "MD5OfMessageAttributes", default)]
    pub md5_of_message_attributes: Option<String>,
    #[serde(default)]
    pub message_attributes: Option<MessageAttributes>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct DeleteMessageInput {
    pub queue_url: QueueUrl,
    pub receipt_handle: AnyReceiptHandle,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct DeleteMessageBatchInput {
    pub queue_url: QueueUrl,
    pub entries: Vec<DeleteMessageBatchEntry>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct DeleteMessageBatchEntry {
    pub id: String,
    pub receipt_handle: AnyReceiptHandle,
}

/// The answer of DeleteMessageBatch and ChangeMessageVisibilityBatch.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct BatchOutput {
    #[serde(default)]
    pub successful: Vec<BatchResultEntry>,
    #[serde(default)]
    pub failed: Vec<BatchResultErrorEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct BatchResultEntry {
    pub id: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ChangeMessageVisibilityInput {
    pub queue_url: QueueUrl,
    pub receipt_handle: AnyReceiptHandle,
    pub visibility_timeout: i64,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ChangeMessageVisibilityBatchInput {
    pub queue_url: QueueUrl,
    pub entries: Vec<ChangeMessageVisibilityBatchEntry>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ChangeMessageVisibilityBatchEntry {
    pub id: String,
    pub receipt_handle: AnyReceiptHandle,
    pub visibility_timeout: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ListDeadLetterSourceQueuesInput {
    pub queue_url: QueueUrl,
    pub next_token: Option<String>,
    pub max_results: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[allow(missing_docs)]
pub struct ListDeadLetterSourceQueuesOutput {
    /// Lower-case on the wire, as AWS answers.
    #[serde(rename = "queueUrls")]
    pub queue_urls: Vec<String>,
    #[serde(rename = "NextToken", default)]
    pub next_token: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct StartMessageMoveTaskInput {
    pub source_arn: String,
    pub destination_arn: Option<String>,
    pub max_number_of_messages_per_second: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct StartMessageMoveTaskOutput {
    pub task_handle: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ListMessageMoveTasksInput {
    pub source_arn: String,
    pub max_results: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct ListMessageMoveTasksOutput {
    pub results: Vec<MessageMoveTask>,
}

/// One entry of ListMessageMoveTasks.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct MessageMoveTask {
    /// Only while the task is RUNNING.
    #[serde(default)]
    pub task_handle: Option<String>,
    /// RUNNING, COMPLETED, CANCELLING, CANCELLED or FAILED.
    pub status: String,
    pub source_arn: String,
    #[serde(default)]
    pub destination_arn: Option<String>,
    #[serde(default)]
    pub max_number_of_messages_per_second: Option<i64>,
    pub approximate_number_of_messages_moved: i64,
    pub approximate_number_of_messages_to_move: i64,
    #[serde(default)]
    pub failure_reason: Option<String>,
    /// Epoch milliseconds.
    pub started_timestamp: i64,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct CancelMessageMoveTaskInput {
    pub task_handle: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct CancelMessageMoveTaskOutput {
    pub approximate_number_of_messages_moved: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_ids_are_equal_exactly_when_their_texts_are() {
        let base = "0123456789abcdef0123456789abcdef0123";
        let id = MessageId::from(base);
        assert!(id == MessageId::from(base));
        // A difference at any byte, in the 8-byte words or the 4-byte tail, is seen.
        for at in 0..base.len() {
            let mut other = base.as_bytes().to_vec();
            other[at] = b'-';
            let other = MessageId::from(std::str::from_utf8(&other).unwrap());
            assert!(id != other, "byte {at}");
        }
        // A prefix is another id, though its bytes match as far as they go.
        assert!(MessageId::from("0123") != MessageId::from("01234"));
        assert!(MessageId::from("") == MessageId::default());
    }

    #[test]
    fn the_actions_are_the_issues_eighteen_as_aws_spells_them() {
        let mut names = Request::ACTIONS.to_vec();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "CancelMessageMoveTask",
                "ChangeMessageVisibility",
                "ChangeMessageVisibilityBatch",
                "CreateQueue",
                "DeleteMessage",
                "DeleteMessageBatch",
                "DeleteQueue",
                "GetQueueAttributes",
                "GetQueueUrl",
                "ListDeadLetterSourceQueues",
                "ListMessageMoveTasks",
                "ListQueues",
                "PurgeQueue",
                "ReceiveMessage",
                "SendMessage",
                "SendMessageBatch",
                "SetQueueAttributes",
                "StartMessageMoveTask",
            ]
        );
        let receive = Request::ReceiveMessage(Default::default());
        assert_eq!(Request::ACTIONS[receive.action_index()], "ReceiveMessage");
    }

    #[test]
    fn ten_send_entries_fit_the_allocators_fast_path() {
        // glibc serves requests up to 1000 bytes from its small bins; larger ones, on every
        // batch, cost several times more (see SendMessageBatchEntry).
        assert!(10 * std::mem::size_of::<SendMessageBatchEntry>() <= 1000);
    }

    #[test]
    fn message_ids_read_display_and_serialise_as_their_text() {
        let uuid = "910a2dec-8902-4cc1-beeb-8da1658eec67";
        let id = MessageId::new(uuid).unwrap();
        assert_eq!(&*id, uuid);
        assert_eq!(id.to_string(), uuid);
        assert_eq!(format!("{id:?}"), format!("{uuid:?}"));
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, format!("\"{uuid}\""));
        assert_eq!(serde_json::from_str::<MessageId>(&json).unwrap(), id);
        // Short ids are ids too; longer than a UUID is not one.
        assert_eq!(&*MessageId::from("m1"), "m1");
        assert_eq!(&*MessageId::default(), "");
        assert_ne!(MessageId::from("m1"), MessageId::from("m2"));
        assert_eq!(MessageId::new(&"x".repeat(37)), None);
        assert!(serde_json::from_str::<MessageId>(&format!("\"{}\"", "x".repeat(37))).is_err());
    }

    #[test]
    fn queue_urls_read_compare_and_serialise_as_their_text() {
        let text = "https://sqs.us-east-1.amazonaws.com/000000000000/q";
        let url = QueueUrl::from(text);
        assert_eq!(&*url, text);
        assert_eq!(url, QueueUrl::from(text.to_string()));
        assert_eq!(url.to_string(), text);
        assert_eq!(format!("{url:?}"), format!("{text:?}"));
        let json = serde_json::to_string(&url).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<QueueUrl>(&json).unwrap(), url);
        // The default (no text kept) is the empty text, as made from "".
        assert_eq!(&*QueueUrl::default(), "");
        assert_eq!(QueueUrl::default(), QueueUrl::from(""));
        assert_eq!(serde_json::to_string(&QueueUrl::default()).unwrap(), "\"\"");
        assert_ne!(url, QueueUrl::default());
    }

    /// Every member of every input, written and read back: each member's name checked against
    /// AWS's spelling in the JSON below.
    #[test]
    fn every_input_member_reads_back_what_it_writes() {
        let attributes = serde_json::json!({"a": {"DataType": "String", "StringValue": "x", "BinaryValue": "eA=="}});
        let entry = serde_json::json!({
            "Id": "e1", "MessageBody": "b", "DelaySeconds": 1, "MessageAttributes": attributes,
            "MessageSystemAttributes": attributes, "MessageDeduplicationId": "d", "MessageGroupId": "g"
        });
        let handle = serde_json::json!({"Id": "e1", "ReceiptHandle": "rh", "VisibilityTimeout": 5});
        let mut send = entry.clone();
        send.as_object_mut().unwrap().remove("Id");
        send["QueueUrl"] = "q".into();
        let inputs = [
            (
                "CreateQueue",
                serde_json::json!({"QueueName": "q", "Attributes": {"DelaySeconds": "1"}, "tags": {"t": "v"}}),
            ),
            ("DeleteQueue", serde_json::json!({"QueueUrl": "q"})),
            (
                "ListQueues",
                serde_json::json!({"QueueNamePrefix": "p", "NextToken": "n", "MaxResults": 5}),
            ),
            (
                "GetQueueUrl",
                serde_json::json!({"QueueName": "q", "QueueOwnerAWSAccountId": "1"}),
            ),
            (
                "GetQueueAttributes",
                serde_json::json!({"QueueUrl": "q", "AttributeNames": ["All"]}),
            ),
            (
                "SetQueueAttributes",
                serde_json::json!({"QueueUrl": "q", "Attributes": {"DelaySeconds": "1"}}),
            ),
            ("PurgeQueue", serde_json::json!({"QueueUrl": "q"})),
            ("SendMessage", send),
            (
                "SendMessageBatch",
                serde_json::json!({"QueueUrl": "q", "Entries": [entry]}),
            ),
            (
                "ReceiveMessage",
                serde_json::json!({
                    "QueueUrl": "q", "AttributeNames": ["All"], "MessageSystemAttributeNames": ["SenderId"],
                    "MessageAttributeNames": ["a"], "MaxNumberOfMessages": 2, "VisibilityTimeout": 3,
                    "WaitTimeSeconds": 4, "ReceiveRequestAttemptId": "r"
                }),
            ),
            (
                "DeleteMessage",
                serde_json::json!({"QueueUrl": "q", "ReceiptHandle": "rh"}),
            ),
            (
                "DeleteMessageBatch",
                serde_json::json!({"QueueUrl": "q", "Entries": [{"Id": "e1", "ReceiptHandle": "rh"}]}),
            ),
            (
                "ChangeMessageVisibility",
                serde_json::json!({"QueueUrl": "q", "ReceiptHandle": "rh", "VisibilityTimeout": 5}),
            ),
            (
                "ChangeMessageVisibilityBatch",
                serde_json::json!({"QueueUrl": "q", "Entries": [handle]}),
            ),
            (
                "ListDeadLetterSourceQueues",
                serde_json::json!({"QueueUrl": "q", "NextToken": "n", "MaxResults": 5}),
            ),
            (
                "StartMessageMoveTask",
                serde_json::json!({"SourceArn": "s", "DestinationArn": "d", "MaxNumberOfMessagesPerSecond": 5}),
            ),
            (
                "ListMessageMoveTasks",
                serde_json::json!({"SourceArn": "s", "MaxResults": 5}),
            ),
            (
                "CancelMessageMoveTask",
                serde_json::json!({"TaskHandle": "t"}),
            ),
        ];
        for (action, input) in inputs {
            let request = Request::from_input(action, input.clone()).unwrap();
            assert_eq!(request.action(), action);
            let written = serde_json::to_value(&request).unwrap();
            assert_eq!(written, serde_json::json!({"call": action, "input": input}));
        }
    }

    #[test]
    fn input_errors_are_those_serde_gives() {
        let error = |action: &str, input: Value| {
            Request::from_input(action, input).unwrap_err().to_string()
        };
        let q = || serde_json::json!("q");
        assert_eq!(
            error("SendMessage", serde_json::json!({"QueueUrl": q()})),
            "missing field `MessageBody`"
        );
        assert_eq!(
            error(
                "SendMessage",
                serde_json::json!({"QueueUrl": q(), "MessageBody": "b", "DelaySeconds": "1"})
            ),
            "invalid type: string \"1\", expected i64"
        );
        assert_eq!(
            error(
                "SendMessageBatch",
                serde_json::json!({"QueueUrl": q(), "Entries": [{"Id": "e1"}]})
            ),
            "missing field `MessageBody`"
        );
        assert_eq!(error("ListQueues", Value::Null), "expected a JSON object");
        assert!(error("Explode", serde_json::json!({}))
            .starts_with("unknown variant `Explode`, expected one of `CreateQueue`"));
        // Members an action does not have are left for the script reader to report.
        let request =
            Request::from_input("PurgeQueue", serde_json::json!({"QueueUrl": q(), "X": 1}))
                .unwrap();
        assert_eq!(
            request,
            Request::PurgeQueue(QueueUrlInput {
                queue_url: "q".into()
            })
        );
    }

    /// The hand-written readers answer what serde's would, values and errors alike.
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

    #[test]
    fn bodies_share_long_texts_and_serialise_as_their_text() {
        // Short texts are copied inline, longer ones shared; either way a body reads, compares
        // and serialises as its text.
        let (edge, long) = ("x".repeat(Body::INLINE), "héllo \"x\" ".repeat(3));
        for text in ["héllo \"x\"", &edge, &long] {
            let body = Body::from(String::from(text));
            assert_eq!(body, Body::from(text));
            let copy = body.clone();
            let shared = text.len() > Body::INLINE;
            assert_eq!(copy.as_ptr() == body.as_ptr(), shared, "{text}");
            assert_eq!(body, text);
            assert_eq!((body.len(), &*body), (text.len(), text));
            assert_eq!(format!("{body:?}"), format!("{text:?}"));
            let json = serde_json::to_string(&body).unwrap();
            assert_eq!(json, serde_json::to_string(text).unwrap());
            assert_eq!(serde_json::from_str::<Body>(&json).unwrap(), body);
        }
        let (inline, shared) = (Body::from("a"), Body::from(long.as_str()));
        assert!(
            inline < shared,
            "ordered by text, whichever way each is kept"
        );
        assert_eq!(&*Body::default(), "");
        assert!(Body::default().is_empty());
    }

    #[test]
    fn md5_serialises_as_hex_and_compares_with_it() {
        let digest = Md5(*b"\x78\xe7\x31\x02\x7d\x8f\xd5\x0e\xd6\x42\x34\x0b\x7c\x9a\x63\xb3");
        assert_eq!(digest, "78e731027d8fd50ed642340b7c9a63b3");
        let json = serde_json::to_string(&digest).unwrap();
        assert_eq!(json, "\"78e731027d8fd50ed642340b7c9a63b3\"");
        assert_eq!(serde_json::from_str::<Md5>(&json).unwrap(), digest);
        assert!(serde_json::from_str::<Md5>("\"78E731027D8FD50ED642340B7C9A63B3\"").is_err());
        assert!(serde_json::from_str::<Md5>("\"78e7\"").is_err());
    }
}
