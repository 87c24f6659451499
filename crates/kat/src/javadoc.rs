//! Javadoc comments: splitting a `/** ... */` comment into its main
//! description and block tags, and normalising inline markup.
//!
//! Normalised text keeps code as back-quoted spans: `{@code index}` and
//! `<code>index</code>` become `` `index` ``, `{@link String#length() length}`
//! becomes `` `length` `` and records the link target. HTML tags are dropped
//! and entities decoded, white space is collapsed.

use serde::{Deserialize, Serialize};

/// One documentation comment, split into parts (texts still hold inline
/// tags; see [`normalise`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DocComment {
    /// The main description (before the first block tag).
    pub main: String,
    /// `@param name text`, in order.
    pub params: Vec<(String, String)>,
    /// The `@return` text.
    pub returns: Option<String>,
    /// `@throws`/`@exception Name text`, in order; the name as written.
    pub throws: Vec<(String, String)>,
}

impl DocComment {
    /// Parses the text of a `/** ... */` comment (delimiters included).
    pub fn parse(comment: &str) -> DocComment {
        let body = comment.trim().trim_start_matches("/**").trim_end_matches("*/");
        let mut lines = Vec::new();
        for line in body.lines() {
            let t = line.trim_start();
            let t = t.strip_prefix('*').unwrap_or(t);
            lines.push(t.strip_prefix(' ').unwrap_or(t));
        }
        let mut doc = DocComment::default();
        let mut current: Option<String> = None;
        let flush = |doc: &mut DocComment, block: Option<String>| match block {
            None => {}
            Some(b) => doc.add_block(&b),
        };
        let mut main = String::new();
        for line in lines {
            let starts_tag = line.trim_start().starts_with('@');
            if starts_tag {
                flush(&mut doc, current.take());
                current = Some(line.trim_start().to_string());
            } else if let Some(c) = current.as_mut() {
                c.push('\n');
                c.push_str(line);
            } else {
                main.push_str(line);
                main.push('\n');
            }
        }
        flush(&mut doc, current.take());
        doc.main = main.trim().to_string();
        // `{@return text}` (JDK 16+) stands for "Returns text." and a
        // `@return text` tag.
        if doc.returns.is_none()
            && let Some(at) = doc.main.find("{@return ")
        {
            let tail = &doc.main[at + 2..];
            let end = matching_brace(tail).unwrap_or(tail.len());
            doc.returns = Some(tail["return ".len()..end].trim().to_string());
        }
        doc
    }

    fn add_block(&mut self, block: &str) {
        let (tag, rest) = block.split_once(char::is_whitespace).unwrap_or((block, ""));
        let rest = rest.trim();
        let (word, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        match tag {
            "@param" => self.params.push((word.to_string(), text.trim().to_string())),
            "@return" => self.returns = Some(rest.to_string()),
            "@throws" | "@exception" => self.throws.push((word.to_string(), text.trim().to_string())),
            _ => {}
        }
    }
}

/// A `{@link}` target: `Class#member(args)` as written (either part may be
/// empty: `#size()` is a member of the documented class).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkTarget {
    /// The class part, e.g. `Iterator` or `java.util.Iterator`; empty for
    /// the documented class.
    pub class: String,
    /// The member name, e.g. `hasNext`; empty for a class link.
    pub member: String,
    /// The text shown in its place.
    pub shown: String,
}

/// Javadoc text with markup removed; code spans are back-quoted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Normalised {
    /// The plain text.
    pub text: String,
    /// `{@link}`/`{@linkplain}` targets met, in order.
    pub links: Vec<LinkTarget>,
}

/// Removes inline tags and HTML from Javadoc text (see the module
/// documentation).
pub fn normalise(raw: &str) -> Normalised {
    let mut out = Normalised::default();
    let mut text = String::new();
    let clean = |s: &str| decode_entities(&strip_html(s));
    // `<a href="{@docRoot}/...">`: an inline tag inside an HTML tag would
    // split it, and the tag's first half would stay in the text.
    let raw = raw.replace("{@docRoot}", "");
    let mut rest = raw.as_str();
    while let Some(start) = rest.find("{@") {
        // HTML is removed from the text around inline tags only, so that
        // `{@code List<String>}` keeps its angle brackets.
        text.push_str(&clean(&rest[..start]));
        let tail = &rest[start + 2..];
        let end = matching_brace(tail).unwrap_or(tail.len());
        let inner = &tail[..end];
        let (tag, body) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
        text.push_str(&inline_tag(tag, body.trim(), &mut out.links));
        rest = tail.get(end + 1..).unwrap_or("");
    }
    text.push_str(&clean(rest));
    out.text = collapse_space(&text);
    out
}

/// Splits a `{@link}` body into its target and label at the first white
/// space outside parentheses (`#m(int, String) label`).
fn split_link(body: &str) -> (&str, &str) {
    let mut depth = 0i32;
    for (i, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() && depth <= 0 => return (&body[..i], body[i..].trim()),
            _ => {}
        }
    }
    (body, "")
}

/// The byte index of the `}` that closes an inline tag whose text starts
/// at `s` (nested braces are balanced).
fn matching_brace(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

fn inline_tag(tag: &str, body: &str, links: &mut Vec<LinkTarget>) -> String {
    match tag {
        "code" | "literal" => format!("`{}`", body.trim()),
        "link" | "linkplain" => {
            let (target, label) = split_link(body);
            let (class, member) = target.split_once('#').unwrap_or((target, ""));
            let member_name = member.split('(').next().unwrap_or("").to_string();
            let shown = if !label.trim().is_empty() {
                label.trim().to_string()
            } else if member.is_empty() {
                class.rsplit('.').next().unwrap_or(class).to_string()
            } else if class.is_empty() {
                member.to_string()
            } else {
                format!("{}.{member}", class.rsplit('.').next().unwrap_or(class))
            };
            links.push(LinkTarget { class: class.to_string(), member: member_name, shown: shown.clone() });
            if tag == "link" { format!("`{shown}`") } else { shown }
        }
        "value" => body.rsplit('#').next().unwrap_or(body).to_string(),
        _ => body.to_string(),
    }
}

/// Drops HTML tags; `<code>`/`<tt>` become back-quotes.
fn strip_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let after = &rest[lt + 1..];
        let is_tag = after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/' || c == '!');
        match after.find('>') {
            Some(gt) if is_tag => {
                let name = after[..gt].trim_start_matches('/').split_whitespace().next().unwrap_or("");
                let name = name.to_ascii_lowercase();
                if name == "code" || name == "tt" {
                    out.push('`');
                } else if name == "li" {
                    out.push_str(" ; ");
                } else if matches!(name.as_str(), "p" | "br" | "ul" | "ol" | "table" | "tr" | "td" | "dd") {
                    out.push(' ');
                }
                rest = &after[gt + 1..];
            }
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn decode_entities(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&le;", "<=")
        .replace("&ge;", ">=")
        .replace("&ne;", "!=")
        .replace("&amp;", "&")
}

fn collapse_space(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_split_into_main_description_and_block_tags() {
        let doc = DocComment::parse(
            "/**\n * Returns the char value at the\n * specified index.\n *\n * @param      index   the index.\n \
             * @return     the {@code char} value.\n * @exception  IndexOutOfBoundsException  if the {@code index}\n \
             *             argument is negative.\n */",
        );
        assert_eq!(doc.main, "Returns the char value at the\nspecified index.");
        assert_eq!(doc.params, vec![("index".to_string(), "the index.".to_string())]);
        assert_eq!(doc.returns.as_deref(), Some("the {@code char} value."));
        assert_eq!(doc.throws[0].0, "IndexOutOfBoundsException");
        assert_eq!(doc.throws[0].1, "if the {@code index}\n            argument is negative.");
    }

    #[test]
    fn inline_markup_is_normalised_and_links_recorded() {
        let n = normalise(
            "if the {@code index} is &lt; {@link #size() size}, or <i>the</i> {@linkplain Iterator#hasNext() \
             iteration} has {@code {x}}",
        );
        assert_eq!(n.text, "if the `index` is < `size`, or the iteration has `{x}`");
        assert_eq!(n.links[0], LinkTarget { class: String::new(), member: "size".into(), shown: "size".into() });
        assert_eq!(n.links[1].member, "hasNext");
        assert_eq!(n.links[1].shown, "iteration");
        let n = normalise("{@link #regionMatches(int, String, int, int) x} and {@code List<String>} <b>bold</b>");
        assert_eq!(n.text, "`x` and `List<String>` bold");
        assert_eq!(n.links[0].member, "regionMatches");
    }
}
