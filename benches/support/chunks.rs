//! A message cut into chunks as a model's tokens would arrive: the benches
//! share it.

/// `text` in pieces of `size` bytes, each stretched to a char boundary.
pub fn str_chunks(text: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut from = 0;
    std::iter::from_fn(move || {
        if from >= text.len() {
            return None;
        }
        let mut to = (from + size).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let piece = &text[from..to];
        from = to;
        Some(piece)
    })
}
