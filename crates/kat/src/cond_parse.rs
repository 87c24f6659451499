//! Parser of the condition language of [`crate::cond`]: the printed form
//! (labels, `Cond::parse`) and Java expressions in Javadoc `{@code ...}`
//! spans (`Cond::parse_code`), where bare names are resolved against the
//! method's parameters and `size()` means `this.size()`.

use crate::cond::{CmpOp, Cond, CondParseError, Expr};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Int(i64),
    Op(&'static str),
}

const OPS: [&str; 17] = ["||", "&&", "<=", ">=", "==", "!=", "<", ">", "!", "(", ")", ".", ",", "+", "-", "*", "?"];

fn lex(text: &str) -> Result<Vec<Tok>, CondParseError> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_ascii_digit() {
            let mut end = i;
            while let Some(&(j, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                end = j + d.len_utf8();
                chars.next();
            }
            let n = text[i..end].parse().map_err(|_| CondParseError::NumberTooLarge { offset: i })?;
            out.push(Tok::Int(n));
        } else if c == '"' {
            chars.next();
            let mut lit = String::new();
            loop {
                match chars.next() {
                    Some((_, '"')) => break,
                    Some((_, '\\')) => lit.extend(chars.next().map(|(_, e)| e)),
                    Some((_, ch)) => lit.push(ch),
                    None => return Err(CondParseError::UnterminatedString { offset: i, text: text.to_string() }),
                }
            }
            out.push(Tok::Str(lit));
        } else if c.is_ascii_alphabetic() || c == '_' || c == '$' {
            let mut end = i;
            while let Some(&(j, d)) = chars.peek().filter(|(_, d)| d.is_ascii_alphanumeric() || *d == '_' || *d == '$')
            {
                end = j + d.len_utf8();
                chars.next();
            }
            out.push(Tok::Ident(text[i..end].to_string()));
        } else if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(**op)) {
            out.push(Tok::Op(op));
            for _ in 0..op.len() {
                chars.next();
            }
        } else {
            return Err(CondParseError::UnexpectedChar { offset: i, found: c, text: text.to_string() });
        }
    }
    Ok(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    pos: usize,
    /// `Some(params)` in code mode: bare names are resolved.
    params: Option<&'a [String]>,
}

/// Parses the printed form.
pub(crate) fn parse_cond(text: &str) -> Result<Cond, CondParseError> {
    let mut p = Parser { toks: lex(text)?, pos: 0, params: None };
    let c = p.or()?;
    if p.pos != p.toks.len() {
        return Err(CondParseError::TrailingText { token: p.pos, text: text.to_string() });
    }
    Ok(c)
}

/// Parses a Javadoc code span as a condition (must contain a comparison or
/// a negation), resolving names against `params`.
pub(crate) fn parse_code(text: &str, params: &[String]) -> Option<Cond> {
    let toks = lex(text).ok()?;
    if !toks.iter().any(|t| matches!(t, Tok::Op("<" | "<=" | ">" | ">=" | "==" | "!=" | "!"))) {
        return None;
    }
    let mut p = Parser { toks, pos: 0, params: Some(params) };
    let c = p.or().ok()?;
    (p.pos == p.toks.len() && !matches!(c, Cond::Truth(_))).then_some(c)
}

/// Parses a Javadoc code span as a value (`a.length`, `off + len`,
/// `size()`), resolving names against `params`.
pub(crate) fn parse_code_expr(text: &str, params: &[String]) -> Option<Expr> {
    let mut p = Parser { toks: lex(text).ok()?, pos: 0, params: Some(params) };
    let e = p.expr().ok()?;
    (p.pos == p.toks.len()).then_some(e)
}

/// The value written `?` (an unknown bound), only inside comparisons.
fn unknown_value() -> Expr {
    Expr::Name("?".to_string())
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Op(o)) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &'static str) -> Result<(), CondParseError> {
        if self.eat(op) { Ok(()) } else { Err(CondParseError::Expected { token: self.pos, expected: op }) }
    }

    fn or(&mut self) -> Result<Cond, CondParseError> {
        let mut parts = vec![self.and()?];
        while self.eat("||") {
            parts.push(self.and()?);
        }
        Ok(Cond::join(parts, false))
    }

    fn and(&mut self) -> Result<Cond, CondParseError> {
        let mut parts = vec![self.unary()?];
        while self.eat("&&") {
            parts.push(self.unary()?);
        }
        Ok(Cond::join(parts, true))
    }

    fn unary(&mut self) -> Result<Cond, CondParseError> {
        if self.eat("!") {
            return Ok(Cond::Not(Box::new(self.unary()?)));
        }
        if self.eat("?") {
            return Ok(Cond::Unknown);
        }
        if matches!(self.peek(), Some(Tok::Op("("))) {
            let save = self.pos;
            self.pos += 1;
            if let Ok(c) = self.or()
                && self.eat(")")
                && !matches!(self.peek(), Some(Tok::Op(_)) if !matches!(self.peek(), Some(Tok::Op("||" | "&&" | ")"))))
            {
                return Ok(c);
            }
            self.pos = save;
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Cond, CondParseError> {
        let left = self.expr()?;
        if matches!(self.peek(), Some(Tok::Ident(k)) if k == "instanceof") {
            self.pos += 1;
            return Ok(Cond::InstanceOf { value: left, class: self.class_name()? });
        }
        if let Some(Tok::Op(o)) = self.peek()
            && let Some(op) = CmpOp::parse(o)
        {
            self.pos += 1;
            let right = self.expr()?;
            // `x < ?`: a comparison with an unknown bound says no more than `?`.
            if left == unknown_value() || right == unknown_value() {
                return Ok(Cond::Unknown);
            }
            return Ok(Cond::Cmp { left, op, right });
        }
        Ok(Cond::Truth(left))
    }

    /// A class name, simple or qualified (`java.security.AccessControlContext`).
    fn class_name(&mut self) -> Result<String, CondParseError> {
        let mut name = String::new();
        loop {
            let Some(Tok::Ident(part)) = self.peek().cloned() else {
                return Err(CondParseError::NameAfterDot { token: self.pos });
            };
            self.pos += 1;
            name.push_str(&part);
            if !self.eat(".") {
                return Ok(name);
            }
            name.push('.');
        }
    }

    fn expr(&mut self) -> Result<Expr, CondParseError> {
        let mut left = self.term()?;
        loop {
            let op = if self.eat("+") {
                '+'
            } else if self.eat("-") {
                '-'
            } else {
                return Ok(left);
            };
            let right = self.term()?;
            left = Expr::Arith { op, left: Box::new(left), right: Box::new(right) };
        }
    }

    /// Products: `hours * 60`.
    fn term(&mut self) -> Result<Expr, CondParseError> {
        let mut left = self.postfix()?;
        while self.eat("*") {
            let right = self.postfix()?;
            left = Expr::Arith { op: '*', left: Box::new(left), right: Box::new(right) };
        }
        Ok(left)
    }

    fn postfix(&mut self) -> Result<Expr, CondParseError> {
        let mut e = self.primary()?;
        while self.eat(".") {
            let Some(Tok::Ident(name)) = self.peek().cloned() else {
                return Err(CondParseError::NameAfterDot { token: self.pos });
            };
            self.pos += 1;
            e = if matches!(self.peek(), Some(Tok::Op("("))) {
                Expr::Call { target: Box::new(e), name, args: self.args()? }
            } else {
                Expr::Field { target: Box::new(e), name }
            };
        }
        Ok(e)
    }

    fn args(&mut self) -> Result<Vec<Expr>, CondParseError> {
        self.expect("(")?;
        let mut args = Vec::new();
        if self.eat(")") {
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat(")") {
                return Ok(args);
            }
            self.expect(",")?;
        }
    }

    fn primary(&mut self) -> Result<Expr, CondParseError> {
        match self.peek().cloned() {
            Some(Tok::Int(n)) => {
                self.pos += 1;
                Ok(Expr::Int(n))
            }
            Some(Tok::Op("-")) => {
                self.pos += 1;
                match self.primary()? {
                    Expr::Int(n) => Ok(Expr::Int(-n)),
                    _ => Err(CondParseError::MinusBeforeNonNumber { token: self.pos }),
                }
            }
            Some(Tok::Str(lit)) => {
                self.pos += 1;
                Ok(Expr::Str(lit))
            }
            Some(Tok::Op("?")) => {
                self.pos += 1;
                Ok(unknown_value())
            }
            Some(Tok::Op("(")) => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Tok::Ident(name)) => {
                self.pos += 1;
                self.name(name)
            }
            other => Err(CondParseError::ExpectedValue { token: self.pos, found: format!("{other:?}") }),
        }
    }

    fn name(&mut self, name: String) -> Result<Expr, CondParseError> {
        Ok(match name.as_str() {
            "null" => Expr::Null,
            "true" => Expr::Bool(true),
            "false" => Expr::Bool(false),
            "this" => Expr::This,
            // A name followed by `.` and starting upper-case is a class
            // (`Character.MAX_RADIX`); other names are parameters.
            _ => match self.params {
                None if name.starts_with(char::is_uppercase) && matches!(self.peek(), Some(Tok::Op("."))) => {
                    Expr::Name(name)
                }
                None => Expr::Param(name),
                Some(_) if matches!(self.peek(), Some(Tok::Op("("))) => {
                    Expr::Call { target: Box::new(Expr::This), name, args: self.args()? }
                }
                Some(params) if params.contains(&name) => Expr::Param(name),
                // `Character.MAX_RADIX`; a lower-case name that is no
                // parameter (a field, a local of an example) has no formal
                // meaning here.
                Some(_) if name.starts_with(char::is_uppercase) && matches!(self.peek(), Some(Tok::Op("."))) => {
                    Expr::Name(name)
                }
                Some(_) => return Err(CondParseError::NotAParameter { token: self.pos, name }),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(text: &str) -> String {
        parse_cond(text).unwrap().to_string()
    }

    #[test]
    fn printed_conditions_parse_back_to_themselves() {
        for text in [
            "index < 0 || index >= this.length()",
            "obj == null",
            "!(context instanceof java.security.AccessControlContext)",
            "hours * 60 + minutes < -1080",
            "(a + b) * 2 > this.limit() - 1",
            "!this.hasNext()",
            "coll.isEmpty()",
            "e == null && ?",
            "off < 0 || len < 0 || len > b.length - off",
            "radix < Character.MIN_RADIX",
            "?",
            "(a == null || b == null) && ?",
            "a - (b - c) > 0",
            "a - b - c > 0",
            r#"mode.equals("rw") && ?"#,
            r#"s.equals("a\"b\\c")"#,
        ] {
            assert_eq!(round(text), text);
        }
    }

    #[test]
    fn canonical_forms_ignore_order_and_literal_side() {
        let a = parse_cond("index >= this.length() || index < 0").unwrap().canonical();
        let b = parse_cond("0 > index || index >= this.length()").unwrap().canonical();
        assert_eq!(a, b);
        let c = parse_cond("this.hasNext() == false").unwrap().canonical();
        assert_eq!(c, parse_cond("!this.hasNext()").unwrap().canonical());
        assert_ne!(a, parse_cond("index < 0").unwrap().canonical());
    }

    #[test]
    fn code_spans_resolve_parameters_and_receiver_calls() {
        let params = vec!["index".to_string()];
        let c = parse_code("index < 0 || index >= size()", &params).unwrap();
        assert_eq!(c.to_string(), "index < 0 || index >= this.size()");
        assert!(parse_code("size()", &params).is_none());
        assert!(parse_code("String", &params).is_none());
        assert!(parse_code("off < 0", &params).is_none(), "`off` is no parameter");
        assert_eq!(
            parse_code("index > Character.MAX_RADIX", &params).unwrap().to_string(),
            "index > Character.MAX_RADIX"
        );
    }

    #[test]
    fn comparisons_with_an_unknown_bound_are_unknown() {
        assert_eq!(parse_cond("year < ? || year > ?").unwrap(), Cond::Unknown);
        assert_eq!(parse_cond("x == null && dst.length < ?").unwrap().to_string(), "x == null && ?");
    }

    #[test]
    fn errors_name_the_position_and_what_was_expected() {
        let err = parse_cond("x ≤ 0").unwrap_err();
        assert_eq!(err, CondParseError::UnexpectedChar { offset: 2, found: '≤', text: "x ≤ 0".into() });
        assert_eq!(err.to_string(), "unexpected `≤` at 2 in `x ≤ 0`");
        let err = parse_cond("a <").unwrap_err();
        assert_eq!(err, CondParseError::ExpectedValue { token: 2, found: "None".into() });
        assert_eq!(err.to_string(), "expected a value, found None");
        assert_eq!(parse_cond("x.f(a b").unwrap_err(), CondParseError::Expected { token: 5, expected: "," });
        assert_eq!(parse_cond("a == b c").unwrap_err().to_string(), "unexpected text after position 3 in `a == b c`");
    }

    #[test]
    fn non_ascii_text_is_an_error_not_a_panic() {
        for text in ["x ≤ 0", "é", "index ≥ size()", "a < 0 ∨ b", "名前 == null"] {
            assert!(parse_cond(text).is_err(), "{text}");
            let _ = parse_code(text, &["x".to_string()]);
        }
    }
}
