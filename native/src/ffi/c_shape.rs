//! Shape check of an incoming C `ArrowArray` against its data type, run before
//! arrow-rs imports it.
//!
//! arrow-rs's importer asserts (panics) on a wrong number of children and reads the
//! offsets buffers (and the variadic lengths buffer of view types) through typed
//! pointers. This check turns such malformed input into a `GATUN_ERR_ARROW` message
//! instead: counts of buffers and children, non-NULL pointer arrays and children,
//! dictionary presence, non-negative lengths, `null_count <= length`, alignment of the
//! buffers that are read directly, the first and last offsets of variable-width and
//! list arrays, and struct children long enough for their parent. Buffer sizes cannot
//! be checked: the C Data Interface does not carry them (a producer lying about
//! `length` is undefined behaviour for any consumer).
//!
//! A [`ShapePlan`] is built once per data type (allocating) and checks every batch
//! without allocating; the path of a node (`input.children[3]`) is spelled out only in
//! an error message. For the types Gatun crosses (everything but views, list views,
//! fixed-size lists, unions, run-end encoding and dictionaries) the check also proves
//! everything `ArrayData::validate` would check after arrow-rs's import (buffer sizes
//! follow from the lengths the import itself computes), so the importer skips that
//! second walk; see [`Checked`].

use std::ffi::c_void;
use std::fmt;

use arrow::array::{layout, BufferSpec};
use arrow::datatypes::DataType;
use arrow::ffi::FFI_ArrowArray;

/// What the shape check of one array proved, for the import that follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// Every fixed-width buffer is aligned for its type (else `ArrayData::align_buffers`
    /// must copy the misaligned ones).
    pub aligned: bool,
    /// The checks cover everything `ArrayData::validate` checks on the imported data.
    pub validated: bool,
}

/// The per-type part of the shape check, built once per data type.
#[derive(Debug)]
pub struct ShapePlan {
    pub(crate) root: Node,
    /// Every node has a `validated` type: `import::build` can import the tree.
    pub(crate) simple: bool,
}

#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) data_type: DataType,
    /// Whether C buffer 0 is a validity bitmap.
    pub(crate) validity: bool,
    /// Byte length of C buffers 1.. (of `validated` types), for `import::build`.
    pub(crate) lengths: Vec<Length>,
    /// C buffers of the type (validity included); the minimum when `variadic`.
    buffers: usize,
    variadic: bool,
    /// A buffer arrow-rs's importer reads through a typed pointer.
    direct: Direct,
    /// (C index, alignment) of the fixed-width buffers arrow-rs reads as typed slices.
    fixed: Vec<(usize, usize)>,
    offsets: Offsets,
    is_struct: bool,
    pub(crate) children: Vec<Node>,
    dictionary: Option<Box<Node>>,
    /// Whether this check covers what `ArrayData::validate` checks for this node.
    validated: bool,
}

/// The byte length of a buffer of an array of `offset + length = end` slots, as arrow-rs's
/// importer computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Length {
    /// A bitmap: `ceil(end / 8)`.
    Bits,
    /// `end` values of this many bytes.
    Bytes(usize),
    /// `end + 1` offsets of this many bytes.
    Offsets(usize),
    /// The values of a variable-width array: its last offset (0 when `length` is 0).
    Values,
}

#[derive(Debug, Clone, Copy)]
enum Direct {
    None,
    /// (C index, alignment).
    At(usize, usize),
    /// The last buffer (the variadic lengths of a view type), 8-byte aligned.
    Last,
}

/// The offsets buffer (C index 1) and what its offsets index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Offsets {
    None,
    /// `i32`/`i64` offsets into the values buffer (Utf8, Binary and large variants).
    Values { wide: bool },
    /// `i32`/`i64` offsets into the only child (List, Map, LargeList).
    Child { wide: bool },
}

impl ShapePlan {
    pub fn new(data_type: &DataType) -> Self {
        let root = Node::new(data_type);
        ShapePlan {
            simple: root.simple(),
            root,
        }
    }

    pub fn data_type(&self) -> &DataType {
        &self.root.data_type
    }

    /// Checks `array` (and, recursively, its children and dictionary).
    ///
    /// # Safety
    ///
    /// `array` must be a live `ArrowArray` whose non-NULL `buffers`, `children` and
    /// `dictionary` pointers are valid for the counts it declares, and whose offsets
    /// buffers hold `offset + length + 1` offsets.
    pub unsafe fn check(&self, array: &FFI_ArrowArray, path: &str) -> Result<Checked, String> {
        let mut checked = Checked {
            aligned: true,
            validated: true,
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { self.root.check(array, Path::Root(path), &mut checked)? };
        Ok(checked)
    }
}

/// Checks `array` against `data_type` (building the plan for this one call).
///
/// # Safety
///
/// As [`ShapePlan::check`].
pub unsafe fn check_array_shape(
    array: &FFI_ArrowArray,
    data_type: &DataType,
    path: &str,
) -> Result<Checked, String> {
    // SAFETY: forwarded from this function's contract.
    unsafe { ShapePlan::new(data_type).check(array, path) }
}

impl Node {
    fn new(data_type: &DataType) -> Self {
        let type_layout = layout(data_type);
        let null_slot = usize::from(type_layout.can_contain_null_mask);
        let fixed = type_layout
            .buffers
            .iter()
            .enumerate()
            .filter_map(|(i, spec)| match spec {
                BufferSpec::FixedWidth { alignment, .. } if *alignment > 1 => {
                    Some((i + null_slot, *alignment))
                }
                _ => None,
            })
            .collect();
        let direct = match data_type {
            DataType::Utf8 | DataType::Binary | DataType::List(_) | DataType::Map(_, _) => {
                Direct::At(1, 4)
            }
            DataType::LargeUtf8 | DataType::LargeBinary | DataType::LargeList(_) => {
                Direct::At(1, 8)
            }
            DataType::Utf8View | DataType::BinaryView => Direct::Last,
            _ => Direct::None,
        };
        let offsets = match data_type {
            DataType::Utf8 | DataType::Binary => Offsets::Values { wide: false },
            DataType::LargeUtf8 | DataType::LargeBinary => Offsets::Values { wide: true },
            DataType::List(_) | DataType::Map(_, _) => Offsets::Child { wide: false },
            DataType::LargeList(_) => Offsets::Child { wide: true },
            _ => Offsets::None,
        };
        let validated = match data_type {
            DataType::Null
            | DataType::Boolean
            | DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Float16
            | DataType::Float32
            | DataType::Float64
            | DataType::Timestamp(_, _)
            | DataType::Date32
            | DataType::Date64
            | DataType::Time32(_)
            | DataType::Time64(_)
            | DataType::Duration(_)
            | DataType::Interval(_)
            | DataType::Decimal32(_, _)
            | DataType::Decimal64(_, _)
            | DataType::Decimal128(_, _)
            | DataType::Decimal256(_, _)
            | DataType::FixedSizeBinary(_)
            | DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::List(_)
            | DataType::LargeList(_)
            | DataType::Map(_, _)
            | DataType::Struct(_) => true,
            _ => false,
        };
        let offsets_width = match offsets {
            Offsets::Values { wide } | Offsets::Child { wide } => Some(if wide { 8 } else { 4 }),
            Offsets::None => None,
        };
        let lengths = type_layout
            .buffers
            .iter()
            .enumerate()
            .map(|(i, spec)| match (i, spec, offsets_width) {
                (0, _, Some(width)) => Length::Offsets(width),
                (_, BufferSpec::FixedWidth { byte_width, .. }, _) => Length::Bytes(*byte_width),
                (_, BufferSpec::BitMap, _) => Length::Bits,
                _ => Length::Values,
            })
            .collect();
        Node {
            data_type: data_type.clone(),
            validity: type_layout.can_contain_null_mask,
            lengths,
            buffers: type_layout.buffers.len() + null_slot,
            variadic: type_layout.variadic,
            direct,
            fixed,
            offsets,
            is_struct: matches!(data_type, DataType::Struct(_)),
            children: child_types(data_type).into_iter().map(Node::new).collect(),
            dictionary: match data_type {
                DataType::Dictionary(_, value_type) => Some(Box::new(Node::new(value_type))),
                _ => None,
            },
            validated,
        }
    }

    fn simple(&self) -> bool {
        self.validated && self.dictionary.is_none() && self.children.iter().all(Node::simple)
    }

    /// # Safety
    ///
    /// As [`ShapePlan::check`].
    unsafe fn check(
        &self,
        array: &FFI_ArrowArray,
        path: Path<'_>,
        checked: &mut Checked,
    ) -> Result<(), String> {
        let fail = |what: String| Err(format!("{path}: {what}"));
        let data_type = &self.data_type;
        if array.release.is_none() {
            return fail("already released (release is NULL)".into());
        }
        let (length, offset) = (array.length, array.offset);
        if length < 0 || offset < 0 || array.null_count < -1 {
            return fail(format!(
                "negative length ({length}), offset ({offset}) or null_count ({})",
                array.null_count
            ));
        }
        let Some(end) = length.checked_add(offset) else {
            return fail("length + offset overflows".into());
        };
        if array.null_count > length {
            return fail(format!(
                "null_count ({}) exceeds length ({length})",
                array.null_count
            ));
        }

        let buffers = count(array.buffers.cast::<*const c_void>(), array.n_buffers)
            .map_err(|e| format!("{path}: buffers {e}"))?;
        let buffers_ok = if self.variadic {
            buffers > self.buffers // + the variadic buffer lengths
        } else {
            buffers == self.buffers
        };
        if !buffers_ok {
            return fail(format!(
                "{buffers} buffers for type {data_type}, expected {}{}",
                if self.variadic { "more than " } else { "" },
                self.buffers,
            ));
        }
        // SAFETY: `buffers` holds `n_buffers` pointers (this function's contract), and
        // every index below is smaller (counts checked just above).
        let buffer = |i: usize| unsafe {
            array
                .buffers
                .cast::<*const c_void>()
                .add(i)
                .read_unaligned()
        };
        let direct = match self.direct {
            Direct::None => None,
            Direct::At(index, align) => Some((index, align)),
            Direct::Last => Some((buffers - 1, 8)),
        };
        if let Some((index, align)) = direct {
            let ptr = buffer(index) as usize;
            if !ptr.is_multiple_of(align) {
                return fail(format!(
                    "buffer {index} ({ptr:#x}) is not aligned to {align} bytes"
                ));
            }
        }
        for &(index, align) in &self.fixed {
            checked.aligned &= (buffer(index) as usize).is_multiple_of(align);
        }

        let children = count(array.children.cast::<*const FFI_ArrowArray>(), array.n_children)
            .map_err(|e| format!("{path}: children {e}"))?;
        if children != self.children.len() {
            return fail(format!(
                "{children} children for type {data_type}, expected {}",
                self.children.len()
            ));
        }
        for (i, node) in self.children.iter().enumerate() {
            // SAFETY: `children` holds `n_children` pointers (contract), `i` is below it.
            let child = unsafe { array.children.add(i).read_unaligned() };
            if child.is_null() {
                return fail(format!("child {i} is NULL"));
            }
            // SAFETY: non-NULL child pointer of a live array (this function's contract).
            let child = unsafe { &*child };
            // SAFETY: as above.
            unsafe { node.check(child, Path::Child(&path, i), checked)? };
            if self.is_struct && child.length < end {
                return fail(format!(
                    "child {i} has length {} but the struct needs offset + length = {end}",
                    child.length
                ));
            }
        }

        if self.offsets != Offsets::None {
            let ptr = buffer(1);
            if ptr.is_null() {
                return fail("buffer 1 (offsets) is NULL".into());
            }
            let (first, last) = match self.offsets {
                Offsets::Values { wide: true } | Offsets::Child { wide: true } => {
                    let p = ptr.cast::<i64>();
                    // SAFETY: aligned (checked above), holds `offset + length + 1`
                    // offsets (contract), and `offset`, `end` are in range.
                    unsafe { (*p.add(offset as usize), *p.add(end as usize)) }
                }
                _ => {
                    let p = ptr.cast::<i32>();
                    // SAFETY: as above.
                    unsafe {
                        (
                            i64::from(*p.add(offset as usize)),
                            i64::from(*p.add(end as usize)),
                        )
                    }
                }
            };
            let limit = match self.offsets {
                // SAFETY: checked non-NULL above, a valid child (contract).
                Offsets::Child { .. } => unsafe { (**array.children).length },
                _ => i64::MAX,
            };
            if first < 0 || last < first || last > limit {
                return fail(format!(
                    "offsets {offset} and {end} are {first} and {last}: negative, decreasing{}",
                    if limit < i64::MAX {
                        format!(" or beyond the child's length {limit}")
                    } else {
                        String::new()
                    }
                ));
            }
            // arrow-rs's validate wants an empty variable-width array to start at offset
            // 0 (its values buffer is empty); leave that case to it.
            if length == 0 && first != 0 && matches!(self.offsets, Offsets::Values { .. }) {
                checked.validated = false;
            }
        }
        checked.validated &= self.validated;

        match (array.dictionary.is_null(), &self.dictionary) {
            (false, Some(node)) => {
                // SAFETY: non-NULL dictionary pointer of a live array (this function's contract).
                unsafe { node.check(&*array.dictionary, Path::Dictionary(&path), checked) }
            }
            (true, Some(_)) => fail("dictionary is NULL for a dictionary type".into()),
            (false, None) => fail(format!(
                "has a dictionary but type {data_type} is not a dictionary"
            )),
            (true, None) => Ok(()),
        }
    }
}

/// Where a node is in the array tree, spelled out only for an error message.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root(&'a str),
    Child(&'a Path<'a>, usize),
    Dictionary(&'a Path<'a>),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root(name) => f.write_str(name),
            Path::Child(parent, i) => write!(f, "{parent}.children[{i}]"),
            Path::Dictionary(parent) => write!(f, "{parent}.dictionary"),
        }
    }
}

/// The declared element count of a C pointer array, checked: non-negative, and the
/// array non-NULL when the count is not 0.
fn count<P>(array: *const P, count: i64) -> Result<usize, String> {
    let count = usize::try_from(count).map_err(|_| format!("count {count} is negative"))?;
    if count > 0 && array.is_null() {
        return Err(format!("pointer is NULL but the count is {count}"));
    }
    Ok(count)
}

/// The types of the C Data children of an array or schema of type `data_type`
/// (a dictionary's values are not a child: they are its `dictionary`).
pub fn child_types(data_type: &DataType) -> Vec<&DataType> {
    match data_type {
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f)
        | DataType::FixedSizeList(f, _)
        | DataType::Map(f, _) => vec![f.data_type()],
        DataType::Struct(fields) => fields.iter().map(|f| f.data_type()).collect(),
        DataType::Union(fields, _) => fields.iter().map(|(_, f)| f.data_type()).collect(),
        DataType::RunEndEncoded(run_ends, values) => vec![run_ends.data_type(), values.data_type()],
        _ => vec![],
    }
}
