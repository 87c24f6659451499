//! Parser of the condition language of [`crate::cond`]: the printed form
//! (labels, `Cond::parse`) and Java expressions in Javadoc `{@code ...}`
//! spans (`Cond::parse_code`), where bare names are resolved against the
//! method's parameters and `size()` means `this.size()`.

use crate::cond::{Cond, Expr};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Op(&'static str),
}

const OPS: [&str; 16] = ["||", "&&", "<=", ">=", "==", "!=", "<", ">", "!", "(", ")", ".", ",", "+", "-", "?"];

fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i] as char).is_ascii_digit() {
                i += 1;
            }
            let n = text[start..i].parse().map_err(|_| format!("number too large at {start}"))?;
            out.push(Tok::Int(n));
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < b.len() && ((b[i] as char).is_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            out.push(Tok::Ident(text[start..i].to_string()));
        } else if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(**op)) {
            out.push(Tok::Op(op));
            i += op.len();
        } else {
            return Err(format!("unexpected `{c}` at {i} in `{text}`"));
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
pub(crate) fn parse_cond(text: &str) -> Result<Cond, String> {
    let mut p = Parser { toks: lex(text)?, pos: 0, params: None };
    let c = p.or()?;
    if p.pos != p.toks.len() {
        return Err(format!("unexpected text after position {} in `{text}`", p.pos));
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

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.eat(op) { Ok(()) } else { Err(format!("expected `{op}` at token {}", self.pos)) }
    }

    fn or(&mut self) -> Result<Cond, String> {
        let mut parts = vec![self.and()?];
        while self.eat("||") {
            parts.push(self.and()?);
        }
        Ok(Cond::join(parts, false))
    }

    fn and(&mut self) -> Result<Cond, String> {
        let mut parts = vec![self.unary()?];
        while self.eat("&&") {
            parts.push(self.unary()?);
        }
        Ok(Cond::join(parts, true))
    }

    fn unary(&mut self) -> Result<Cond, String> {
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

    fn comparison(&mut self) -> Result<Cond, String> {
        let left = self.expr()?;
        if let Some(Tok::Op(o)) = self.peek()
            && let Some(op) = crate::cond::cmp_op(o)
        {
            self.pos += 1;
            let right = self.expr()?;
            return Ok(Cond::Cmp { left, op, right });
        }
        Ok(Cond::Truth(left))
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let mut left = self.postfix()?;
        loop {
            let op = if self.eat("+") {
                '+'
            } else if self.eat("-") {
                '-'
            } else {
                return Ok(left);
            };
            let right = self.postfix()?;
            left = Expr::Arith { op, left: Box::new(left), right: Box::new(right) };
        }
    }

    fn postfix(&mut self) -> Result<Expr, String> {
        let mut e = self.primary()?;
        while self.eat(".") {
            let Some(Tok::Ident(name)) = self.peek().cloned() else { return Err("expected a name after `.`".into()) };
            self.pos += 1;
            e = if matches!(self.peek(), Some(Tok::Op("("))) {
                Expr::Call { target: Box::new(e), name, args: self.args()? }
            } else {
                Expr::Field { target: Box::new(e), name }
            };
        }
        Ok(e)
    }

    fn args(&mut self) -> Result<Vec<Expr>, String> {
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

    fn primary(&mut self) -> Result<Expr, String> {
        match self.peek().cloned() {
            Some(Tok::Int(n)) => {
                self.pos += 1;
                Ok(Expr::Int(n))
            }
            Some(Tok::Op("-")) => {
                self.pos += 1;
                match self.primary()? {
                    Expr::Int(n) => Ok(Expr::Int(-n)),
                    _ => Err("`-` before a non-number".into()),
                }
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
            other => Err(format!("expected a value, found {other:?}")),
        }
    }

    fn name(&mut self, name: String) -> Result<Expr, String> {
        Ok(match name.as_str() {
            "null" => Expr::Null,
            "true" => Expr::Bool(true),
            "false" => Expr::Bool(false),
            "this" => Expr::This,
            _ => match self.params {
                None if name.chars().next().is_some_and(char::is_uppercase) => Expr::Name(name),
                None => Expr::Param(name),
                Some(_) if matches!(self.peek(), Some(Tok::Op("("))) => {
                    Expr::Call { target: Box::new(Expr::This), name, args: self.args()? }
                }
                Some(params) if params.contains(&name) => Expr::Param(name),
                Some(_) => Expr::Name(name),
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
            "!this.hasNext()",
            "coll.isEmpty()",
            "e == null && ?",
            "off < 0 || len < 0 || len > b.length - off",
            "radix < Character.MIN_RADIX",
            "?",
            "(a == null || b == null) && ?",
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
    }
}
