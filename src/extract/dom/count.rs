//! Counting a text's characters and sentence punctuation for the CETD
//! statistics, byte-wise where the text allows it.

/// Non-whitespace characters and punctuation marks of a text.
pub(crate) fn count_text(text: &str) -> (u32, u32) {
    let b = text.as_bytes();
    // Simple per-byte predicates: the compiler vectorises these counts.
    let ws = b
        .iter()
        .filter(|&&c| c == b' ' || (9..=13).contains(&c))
        .count();
    let punct = b
        .iter()
        .filter(|&&c| matches!(c, b'.' | b',' | b'!' | b'?' | b';' | b':'))
        .count();
    if text.is_ascii() {
        return ((b.len() - ws) as u32, punct as u32);
    }
    // A char is counted at its first byte (any but a continuation byte,
    // 0x80..=0xBF); only chars of more than one byte are decoded (curly
    // quotes and dashes in English, most letters elsewhere), found eight
    // bytes at a time: a first byte of one has its top two bits set.
    let starts = b.iter().filter(|&&c| (c as i8) >= -0x40).count();
    let (mut wide_ws, mut wide_punct) = (0usize, 0usize);
    let mut wide = |at: usize| {
        if let Some(ch) = text[at..].chars().next() {
            wide_ws += usize::from(ch.is_whitespace());
            wide_punct += usize::from(is_punct(ch));
        }
    };
    let words = b.chunks_exact(8);
    let rest_at = b.len() - words.remainder().len();
    for (j, &c) in words.remainder().iter().enumerate() {
        if c >= 0xC0 {
            wide(rest_at + j);
        }
    }
    for (k, w) in b.chunks_exact(8).enumerate() {
        let x = <[u8; 8]>::try_from(w).map_or(0, u64::from_le_bytes);
        let mut firsts = x & (x << 1) & 0x8080_8080_8080_8080;
        while firsts != 0 {
            wide(k * 8 + firsts.trailing_zeros() as usize / 8);
            firsts &= firsts - 1;
        }
    }
    ((starts - ws - wide_ws) as u32, (punct + wide_punct) as u32)
}

/// Sentence punctuation, Western and CJK.
pub(super) fn is_punct(c: char) -> bool {
    matches!(
        c,
        '.' | ','
            | '!'
            | '?'
            | ';'
            | ':'
            | '。'
            | '，'
            | '！'
            | '？'
            | '；'
            | '：'
            | '、'
            | '．'
            | '…'
    )
}
