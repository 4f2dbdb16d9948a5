//! Reading SGF: the format edge cases of `sgf-fixtures/format-edge` (valid,
//! lenient with the strict refusal, invalid with the expected error),
//! charsets, escapes, deep nesting, and parse(write(x)) == x for every tree
//! of every fixture.

mod sgf_support;

use kosumi::color::Color;
use kosumi::point::{Move, Point};
use kosumi::sgf::{self, ReadOptions, ReplayOptions, SgfErrorKind};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn fx(rel: &str) -> PathBuf {
    sgf_support::fixtures_dir().join(rel)
}

const LENIENT: ReadOptions = ReadOptions { strict: false };
const STRICT: ReadOptions = ReadOptions { strict: true };

/// Reads and replays every tree of a fixture; the first error as text
/// (without the directory), or the warnings.
fn outcome(rel: &str, strict: bool) -> Result<Vec<String>, String> {
    let path = fx(rel);
    let dir = sgf_support::fixtures_dir();
    let strip = |s: String| s.replace(&format!("{}/", dir.display()), "");
    let c = sgf::read_file(&path, ReadOptions { strict }).map_err(|e| strip(e.to_string()))?;
    let mut warnings: Vec<String> = c.warnings.iter().map(|w| w.to_string()).collect();
    for t in &c.trees {
        let r = sgf::replay_tree(
            &path.display().to_string(),
            t,
            &ReplayOptions {
                strict,
                ..ReplayOptions::default()
            },
        )
        .map_err(|e| strip(e.to_string()))?;
        if let Some(a) = r.illegal {
            return Err(format!("illegal {a}"));
        }
        warnings.extend(r.warnings.iter().map(|w| w.to_string()));
    }
    Ok(warnings)
}

/// Files that need no leniency: read and replayed in strict mode with no
/// warning.
#[test]
fn valid_files_read_strictly_without_warnings() {
    for f in [
        "format-edge/gogui/ff4_ex.sgf",
        "format-edge/gogui/size-after-valid-points.sgf",
        "format-edge/gogui/time-settings-unknown-ot.sgf",
        "format-edge/katago-testsgf/compressed-point-ranges.sgf",
        "format-edge/katago-testsgf/black-pass-as-B[].sgf",
        "format-edge/katago-testsgf/white-moves-first.sgf",
        // Setup and PL in any node (GNU Go and Sabaki load them).
        "format-edge/littlego/Illegal_games/setup-after-first-move.sgf",
        "format-edge/littlego/Illegal_games/setup-player-after-first-move.sgf",
        "format-edge/libsgfcplusplus/encoding-utf8-withbom.sgf",
        "format-edge/libsgfcplusplus/encoding-traditionalchinese-big5.sgf",
        "format-edge/littlego/9x9/2-passes.sgf",
        "format-edge/sabaki-sgf/non_fox_game.sgf",
        "pro/9x9/mogo-vs-pro-zhou9a.sgf",
        "pro/amateur-handicap/kgs-evand-TheGNUGo.sgf",
    ] {
        assert_eq!(outcome(f, true), Ok(vec![]), "{f}");
    }
}

/// Each leniency: accepted with this warning, refused in strict mode with
/// this error (file:line:column: message).
#[test]
fn leniencies_warn_and_strict_refuses_them() {
    let cases: [(&str, &str, &str); 13] = [
        (
            "format-edge/sgf-parse/ff3-mixed-case-identifier.sgf",
            "1:13: long property name 'CoPyright' read as 'CP'",
            "format-edge/sgf-parse/ff3-mixed-case-identifier.sgf:1:13: property identifier 'CoPyright' is not upper case (ff[3] long name)",
        ),
        (
            "format-edge/sgf-parse/missing-first-semicolon.sgf",
            "1:2: missing ';' before the first node",
            "format-edge/sgf-parse/missing-first-semicolon.sgf:1:2: expected ';' after '(', found 'B'",
        ),
        (
            "format-edge/sgf-parse/repeated-property.sgf",
            "1:13: property HA repeated in one node: values merged",
            "format-edge/sgf-parse/repeated-property.sgf:1:13: property HA appears twice in one node",
        ),
        (
            "format-edge/sgf-parse/trailing-garbage-paren.sgf",
            "2:15: text outside a game tree skipped",
            "format-edge/sgf-parse/trailing-garbage-paren.sgf:2:15: expected '(' or end of file after a game tree, found ')'",
        ),
        (
            "format-edge/sgf-parse/unescaped-bracket-in-comment.sgf",
            "1:16: unescaped ']' inside the value of C kept as text",
            "format-edge/sgf-parse/unescaped-bracket-in-comment.sgf:1:31: expected ';', '(' or ')', found ':'",
        ),
        (
            "format-edge/sgf-parse/setup-and-move-in-one-node.sgf",
            "1:3: setup AB and a move in one node",
            "format-edge/sgf-parse/setup-and-move-in-one-node.sgf:1:3: setup AB and a move in one node",
        ),
        (
            "format-edge/littlego/19x19/Fuego_vs._Fuego.sgf",
            "40:1: missing ')' at end of file",
            "format-edge/littlego/19x19/Fuego_vs._Fuego.sgf:40:1: unexpected end of file: expected ')' to close the '(' at 1:1",
        ),
        (
            "format-edge/littlego/Illegal_games/encoding-unsupported.sgf",
            "1:1: unknown charset 'CA[foo]' ignored",
            "format-edge/littlego/Illegal_games/encoding-unsupported.sgf:1:1: unknown charset 'CA[foo]'",
        ),
        (
            "format-edge/littlego/Illegal_games/illegal-setup.sgf",
            "1:13: setup stones without liberties removed: aa ab",
            "format-edge/littlego/Illegal_games/illegal-setup.sgf:1:13: setup stones without liberties: aa ab",
        ),
        (
            "format-edge/katago-testsgf/same-colour-twice.sgf",
            "1:37: move 3: white plays out of turn",
            "format-edge/katago-testsgf/same-colour-twice.sgf:1:37: move 3: white plays out of turn",
        ),
        (
            "format-edge/katago-testsgf/branching-redundant-parens.sgf",
            "7:2: redundant '(' read as one",
            "format-edge/katago-testsgf/branching-redundant-parens.sgf:7:2: expected ';' after '(', found '('",
        ),
        (
            "format-edge/real-world-quirks/fox-KM-375.sgf",
            "7:1: komi 375 read as 3.75 (x100 encoding)",
            "format-edge/real-world-quirks/fox-KM-375.sgf:7:1: komi 375 is out of range (x100 encoding of 3.75?)",
        ),
        (
            "format-edge/gogui/verbose-property-names.sgf",
            "3:1: long property name 'GaMe' read as 'GM'",
            "format-edge/gogui/verbose-property-names.sgf:3:1: property identifier 'GaMe' is not upper case (ff[3] long name)",
        ),
    ];
    for (f, warning, strict_error) in cases {
        let w = outcome(f, false).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(w.iter().any(|x| x == warning), "{f}: {w:?}");
        assert_eq!(outcome(f, true), Err(strict_error.to_string()), "{f}");
    }
    // FF[1]-style nodes after a variation continue the main line.
    let w = outcome("format-edge/gogui/verbose-property-names.sgf", false).unwrap();
    assert!(w.iter().any(
        |x| x.ends_with("node after a closed variation continues the main line (ff[1] style)")
    ));
}

/// Files broken on purpose: the error in both modes.
#[test]
fn invalid_files_give_the_expected_error() {
    let cases: [(&str, &str); 14] = [
        ("format-edge/sgf-parse/unclosed-property-value.sgf",
         "format-edge/sgf-parse/unclosed-property-value.sgf:2:1: unexpected end of file: expected ']' to close the value opened at 1:16"),
        ("format-edge/sgf-parse/missing-property-value.sgf",
         "format-edge/sgf-parse/missing-property-value.sgf:2:1: expected '[' after property B, found end of file"),
        ("format-edge/littlego/Illegal_games/not-an-sgf-file.sgf",
         "format-edge/littlego/Illegal_games/not-an-sgf-file.sgf:1:25: no game tree: expected '(;'"),
        ("format-edge/sgfc-testsuite/test.sgf",
         "format-edge/sgfc-testsuite/test.sgf:8:4: expected a property identifier in upper case, found 'illegal'"),
        ("format-edge/gogui/human-readable.sgf",
         "format-edge/gogui/human-readable.sgf:1:15: invalid move 'B[R16]' on a 19x19 board"),
        ("format-edge/gogui/invalidmove.sgf",
         "format-edge/gogui/invalidmove.sgf:2:14: invalid move 'B[rs]' on a 9x9 board"),
        ("format-edge/gogui/size-after-invalid-points.sgf",
         "format-edge/gogui/size-after-invalid-points.sgf:1:3: invalid point 'AB[pp]' on a 9x9 board"),
        ("format-edge/sgf-parse/two-moves-one-node.sgf",
         "format-edge/sgf-parse/two-moves-one-node.sgf:1:29: two moves in one node"),
        ("format-edge/sgf-parse/invalid-move-value.sgf",
         "format-edge/sgf-parse/invalid-move-value.sgf:1:8: invalid move 'W[rp.pmonpoqprpsornqmpm]' on a 19x19 board"),
        ("format-edge/sgf-parse/unknown-game-GM37.sgf",
         "format-edge/sgf-parse/unknown-game-GM37.sgf:1:3: not a go game (GM[37])"),
        ("format-edge/katago-testsgf/rectangular-17x3-negative-komi.sgf",
         "format-edge/katago-testsgf/rectangular-17x3-negative-komi.sgf:1:13: rectangular board 17x3 is not supported (square boards 2..=25 only)"),
        ("format-edge/katago-testsgf/giant-37x37-uppercase-coords.sgf",
         "format-edge/katago-testsgf/giant-37x37-uppercase-coords.sgf:1:38: board size 37 is not supported (2..=25)"),
        ("format-edge/littlego/Illegal_games/illegal-move.sgf",
         "illegal move 16 (white H6): occupied"),
        ("format-edge/real-world-quirks/fox-moves-on-occupied-point.sgf",
         "illegal move 242 (white G16): occupied"),
    ];
    for (f, want) in cases {
        assert_eq!(outcome(f, false), Err(want.to_string()), "{f}");
        assert!(outcome(f, true).is_err(), "{f}");
    }
    let e = sgf::read_file(&fx("no/such/file.sgf"), LENIENT).unwrap_err();
    assert!(matches!(e.kind, SgfErrorKind::Io(_)));
    assert!(
        e.to_string().contains("file.sgf: cannot read file: "),
        "{e}"
    );
    assert!(
        outcome("format-edge/littlego/Illegal_games/suicide.sgf", false)
            .unwrap_err()
            .ends_with("(white A19): suicide")
    );
}

#[test]
fn go_properties() {
    // Fox x100 komi, Chinese rules, result.
    let c = sgf::read_file(&fx("format-edge/real-world-quirks/fox-KM-375.sgf"), LENIENT).unwrap();
    let r = sgf::replay(&c.trees[0], &ReplayOptions::default()).unwrap();
    assert_eq!(r.komi.map(kosumi::Komi::get), Some(3.75));
    assert_eq!(r.game.komi().get(), 3.75);
    assert_eq!(r.rules, kosumi::Rules::CHINESE);
    assert_eq!(r.result.as_deref(), Some("W+R"));
    // Handicap: AB setup, PL, HA.
    let c = sgf::read_file(
        &fx("format-edge/littlego/19x19/handicap-7-komi-0-with-pass-moves.sgf"),
        LENIENT,
    )
    .unwrap();
    let r = sgf::replay(&c.trees[0], &ReplayOptions::default()).unwrap();
    let start = r.game.start();
    assert_eq!(
        start
            .points()
            .filter(|&p| start.get(p) == Some(Color::Black))
            .count(),
        7
    );
    assert_eq!(r.game.start_to_move(), Color::White);
    assert!(r.game.moves().iter().any(|m| m.mv == Move::Pass));
    // tt: a pass on 19x19 and smaller, a point on larger boards.
    let tree = |s: &str| sgf::read_str(s, LENIENT).unwrap().trees.remove(0);
    let r = sgf::replay(&tree("(;SZ[9];B[tt];W[aa])"), &ReplayOptions::default()).unwrap();
    assert_eq!(r.game.moves()[0].mv, Move::Pass);
    let r = sgf::replay(&tree("(;SZ[21];B[tt])"), &ReplayOptions::default()).unwrap();
    assert_eq!(r.game.moves()[0].mv, Move::Play(Point::new(19, 19)));
    // Compressed point lists and AE.
    let r = sgf::replay(
        &tree("(;SZ[5]AB[aa:cb][ee]AW[de];AE[bb])"),
        &ReplayOptions::default(),
    )
    .unwrap();
    assert_eq!(
        r.game.board().diagram(false),
        "X X X . .\nX . X . .\n. . . . .\n. . . . .\n. . . O X\n"
    );
    // RU names.
    for (ru, want) in [
        ("Japanese", kosumi::Rules::JAPANESE),
        ("Korean", kosumi::Rules::JAPANESE),
        ("AGA", kosumi::Rules::AGA),
        ("NZ", kosumi::Rules::NEW_ZEALAND),
        ("Tromp/Taylor", kosumi::Rules::TROMP_TAYLOR),
        ("koSITUATIONALscoreAREAsui1", kosumi::Rules::NEW_ZEALAND),
    ] {
        let r = sgf::replay(&tree(&format!("(;RU[{ru}])")), &ReplayOptions::default()).unwrap();
        assert_eq!(r.rules, want, "{ru}");
    }
    let r = sgf::replay(&tree("(;RU[Ing-ish])"), &ReplayOptions::default()).unwrap();
    assert_eq!(r.rules, kosumi::Rules::CHINESE);
    assert_eq!(
        r.warnings,
        ["1:3: unknown rules 'RU[Ing-ish]': chinese used"]
    );
    // Whitespace around a move: ignored with a warning, refused when strict.
    let r = sgf::replay(&tree("(;SZ[5];B[ cc ])"), &ReplayOptions::default()).unwrap();
    assert_eq!(r.game.moves()[0].mv, Move::Play(Point::new(2, 2)));
    assert_eq!(r.warnings, ["1:9: whitespace in move B ignored"]);
    let strict = ReplayOptions {
        strict: true,
        ..ReplayOptions::default()
    };
    let e = sgf::replay(&tree("(;SZ[5];B[ cc ])"), &strict).unwrap_err();
    assert_eq!(e.kind.to_string(), "whitespace in move 'B[ cc ]'");
    // SZ[19:19] is square.
    assert!(sgf::replay(&tree("(;SZ[19:19])"), &ReplayOptions::default()).is_ok());
}

#[test]
fn escapes_soft_breaks_and_unknown_properties() {
    let text = "(;GM[1]XX[kept][two]C[a \\] b \\\\ c\\\nd]AP[Name\\:x:1.0])";
    let c = sgf::read_str(text, STRICT).unwrap();
    let root = c.trees[0].root();
    assert_eq!(root.get("C").unwrap().text(), "a ] b \\ cd");
    assert_eq!(root.get("XX").unwrap().values, ["kept", "two"]);
    assert_eq!(
        root.get("AP").unwrap().compose(),
        ("Name:x".to_string(), Some("1.0".to_string()))
    );
    let again = sgf::read_str(&c.trees[0].to_sgf(), STRICT).unwrap();
    assert_eq!(again.trees, c.trees);
    // KGS kibitz with escaped ranks and CRLF.
    let c = sgf::read_file(&fx("pro/9x9/mogo-vs-pro-zhou9a.sgf"), STRICT).unwrap();
    let comments: Vec<String> = c.trees[0]
        .nodes
        .iter()
        .filter_map(|n| n.get("C").map(|p| p.text()))
        .collect();
    assert!(
        comments
            .iter()
            .any(|c| c.contains("[1d]") || c.contains("k]")),
        "{comments:?}"
    );
}

/// The comments of one libsgfc++ charset file by language, taken from the
/// node after "The comment in the following node is in <language>.".
fn comments_by_language(rel: &str) -> BTreeMap<String, String> {
    let c = sgf::read_file(&fx(rel), STRICT).unwrap_or_else(|e| panic!("{e}"));
    let t = &c.trees[0];
    let line = t.main_line();
    let mut out = BTreeMap::new();
    for w in line.windows(2) {
        let a = t.nodes[w[0]].get("C").map(|p| p.text()).unwrap_or_default();
        if let Some(lang) = a
            .strip_prefix("The comment in the following node is in ")
            .and_then(|s| s.strip_suffix('.'))
        {
            let b = t.nodes[w[1]].get("C").map(|p| p.text()).unwrap_or_default();
            out.insert(lang.to_string(), b);
        }
    }
    out
}

#[test]
fn charsets_decode_to_the_same_text_as_utf8() {
    let reference = comments_by_language("format-edge/libsgfcplusplus/encoding-utf8-nobom.sgf");
    assert!(reference.len() >= 6, "{reference:?}");
    for (f, must) in [
        ("encoding-chinese-gb18030.sgf", "Simplified Chinese"),
        ("encoding-chinese-gbk.sgf", "Simplified Chinese"),
        ("encoding-cyrillic-windows.sgf", "Cyrillic"),
        ("encoding-japanese-iso2022jp.sgf", "Japanese"),
        ("encoding-japanese-macos.sgf", "Japanese"),
        ("encoding-japanese-shiftjis.sgf", "Japanese"),
        ("encoding-korean-macos.sgf", "Korean"),
        (
            "encoding-simplifiedchinese-gb2312.sgf",
            "Simplified Chinese",
        ),
        ("encoding-simplifiedchinese-macos.sgf", "Simplified Chinese"),
        (
            "encoding-traditionalchinese-big5.sgf",
            "Traditional Chinese",
        ),
        (
            "encoding-traditionalchinese-macos.sgf",
            "Traditional Chinese",
        ),
        ("encoding-utf16-nobom.sgf", "Greek"),
        ("encoding-utf16-withbom.sgf", "Japanese"),
        ("encoding-utf8-withbom.sgf", "Korean"),
    ] {
        let got = comments_by_language(&format!("format-edge/libsgfcplusplus/{f}"));
        assert!(got.contains_key(must), "{f}: {:?}", got.keys());
        for (lang, text) in &got {
            assert_eq!(Some(text), reference.get(lang), "{f} {lang}");
        }
    }
    // The western files end with one comment of special characters (as
    // iconv decodes them).
    for (f, want) in [
        (
            "encoding-western-isolatin1.sgf",
            "Ää Àà Ââ Åå Ææ Çç Èè Éé Êê Ëë Îî Ïï Ññ Öö Ôô Øø ß Üü Ùù Ûû ÿ ¿¡ «»",
        ),
        ("encoding-western-isolatin9.sgf", "Šš Žž"),
        ("encoding-western-macosroman.sgf", "ƒ ‰ ™"),
        ("encoding-western-windowslatin1.sgf", "ƒ ‰ ™"),
    ] {
        let c = sgf::read_file(&fx(&format!("format-edge/libsgfcplusplus/{f}")), STRICT).unwrap();
        let t = &c.trees[0];
        let last = *t.main_line().last().unwrap();
        assert_eq!(t.nodes[last].get("C").unwrap().text(), want, "{f}");
    }
    // Shift_JIS without CA (Nihon Ki-in), guessed.
    let c = sgf::read_file(&fx("format-edge/sabaki-sgf/nihon-kiin.sgf"), LENIENT).unwrap();
    assert_eq!(c.charset, "Shift_JIS");
    assert_eq!(
        c.trees[0].root().get("RE").unwrap().text(),
        "257手完, 黒中押し勝ち"
    );
    // UTF-16 LE with BOM (Sabaki).
    let c = sgf::read_file(&fx("format-edge/sabaki-sgf/utf16le.sgf"), LENIENT).unwrap();
    assert_eq!(c.charset, "UTF-16LE");
    let c8 = sgf::read_file(&fx("format-edge/sabaki-sgf/utf8bom.sgf"), LENIENT).unwrap();
    let (t16, t8) = (&c.trees[0], &c8.trees[0]);
    assert_eq!(t16.root().get("PB").unwrap().text(), "Kitani Minoru");
    assert_eq!(t16.root().value("CA"), Some("UTF16LE"));
    assert_eq!(t16.nodes.len(), t8.nodes.len());
    assert!(
        t16.nodes[1..] == t8.nodes[1..],
        "utf-16 and utf-8 files differ"
    );
}

#[test]
fn deep_nesting_reads_writes_and_drops_without_recursion() {
    // 200,000 nested variations, one node each.
    let n = 200_000;
    let mut s = String::from("(;SZ[9]");
    for i in 0..n {
        s.push_str(if i % 2 == 0 { "(;B[aa]" } else { "(;W[]" });
    }
    s.push_str(&")".repeat(n + 1));
    let c = sgf::read_str(&s, STRICT).unwrap();
    assert_eq!(c.trees[0].nodes.len(), n + 1);
    assert_eq!(c.trees[0].main_line().len(), n + 1);
    let written = c.trees[0].to_sgf();
    let again = sgf::read_str(&written, STRICT).unwrap();
    assert_eq!(again.trees, c.trees);
    // The Fox file with every move in its own variation (302 levels).
    let c = sgf::read_file(
        &fx("format-edge/sabaki-sgf/fox_go_server_japanese.sgf"),
        LENIENT,
    )
    .unwrap();
    assert!(c.trees[0].main_line().len() > 300);
}

/// parse(write(x)) == x for every tree of every fixture that parses.
#[test]
fn write_then_read_gives_the_same_trees() {
    let mut trees = 0;
    for p in sgf_support::sgf_files(&fx("")) {
        let c = match sgf::read_file(&p, LENIENT) {
            Ok(c) => c,
            Err(_) => continue,
        };
        let text = sgf::tree::write_collection(&c.trees);
        let again = sgf::read_str(&text, STRICT)
            .unwrap_or_else(|e| panic!("{}: {e:?}\n{text}", p.display()));
        assert_eq!(again.trees, c.trees, "{}", p.display());
        trees += c.trees.len();
    }
    assert!(trees >= 320, "{trees} trees");
}

/// SGFC's mixed-encoding test: five trees, each with its own charset.
/// Trees 2 (ISO-8859-15) and 3 (no CA: Latin-1) give the text SGFC gives
/// (its UTF-8 output `mixed-encoding-result.sgf`). Trees 1, 4 and 5 are
/// read differently, and are left unchecked: tree 1 declares UTF-16LE for
/// an ASCII file with UTF-16 bytes only inside the value, tree 4 escapes
/// GB18030 trail bytes (`\]`) before encoding, and SGFC reads Shift_JIS
/// 0x5C as a yen sign where the WHATWG decoder gives a backslash.
#[test]
fn each_tree_is_decoded_by_its_own_charset() {
    let c = sgf::read_file(
        &fx("format-edge/sgfc-testsuite/mixed-encoding.sgf"),
        LENIENT,
    )
    .unwrap();
    let sgfc = sgf::read_file(
        &fx("format-edge/sgfc-testsuite/mixed-encoding-result.sgf"),
        STRICT,
    )
    .unwrap();
    assert_eq!(c.trees.len(), 5);
    let text = |t: &sgf::GameTree| t.root().get("C").unwrap().text();
    assert_eq!(text(&c.trees[1]), "hallö! DÜ! ßüper dich zu s€h€n-");
    assert_eq!(text(&c.trees[1]), text(&sgfc.trees[1]));
    assert_eq!(text(&c.trees[2]), text(&sgfc.trees[2]));
    assert_eq!(text(&c.trees[2]), "s¤h¤n");
    assert!(c.warnings.iter().any(|w| w
        .to_string()
        .starts_with("1:1: game trees in several charsets")));
    // Two trees, two declarations, both ASCII.
    let c = sgf::read_file(
        &fx("format-edge/littlego/Illegal_games/encoding-multiple.sgf"),
        STRICT,
    )
    .unwrap();
    assert_eq!(c.trees.len(), 2);
}

/// Setup and `PL` after the first move: the stones and captures
/// at the end of the main line, as `list_stones` would give them. The
/// expectations of the first three are GNU Go 3.8's (`loadsgf`, then
/// `list_stones black`, `list_stones white`, `captures black`); GNU Go
/// ignores `AE` after moves, so the last follows the SGF specification.
#[test]
fn setup_in_later_nodes_loads_the_stones_gnugo_loads() {
    let cases: [(&str, &str, &str, u32, Color); 4] = [
        (
            "setup-later/_semeai_C9_018.sgf",
            "J18 K18 L18 R18 J17 Q17 J16 K16 L16 O16 Q16 G15 H15 K15 M15 N15 O15 J14 H13 P13 Q13 G12 J12 K12 M12 N12 O12 S12 B11 K11 M11 B10 F10 L10 M10 N10 C9 E9 H9 L9 R9 C8 E8 J8 K8 P8 R8 B7 C7 D7 J7 N7 O7 P7 Q7 B6 F6 H6 J6 M6 E5 F5 H5 K5 L5 Q5 D4 E4 F4 G4 B3 C3 D3 M3 Q3 E2",
            "P19 M18 Q18 D17 F17 G17 K17 L17 M17 N17 O17 P17 H16 M16 N16 F15 L15 G14 H14 L14 F13 J13 K13 L13 M13 N13 O13 C12 L12 C11 L11 C10 D10 H10 J10 K10 O10 Q10 R10 S10 D9 G9 K9 M9 N9 O9 P9 Q9 D8 L8 M8 N8 O8 Q8 E7 F7 G7 H7 K7 L7 M7 C6 D6 E6 G6 K6 L6 B5 D5 G5 J5 B4 C4 H4 J4 F3 G3 K3",
            0,
            Color::Black,
        ),
        (
            "setup-later/ab-aw-after-moves.sgf",
            "A9 C8 B7 D7 C6 E5 G3",
            "G7 H7 H6 C3 H3 J1",
            1,
            Color::Black,
        ),
        (
            "setup-later/pl-after-moves.sgf",
            "C7 E7 G7 E5",
            "C3 G3",
            0,
            Color::White,
        ),
        (
            "setup-later/ae-after-moves.sgf",
            "A8 B8 A7 B7 D6 E6",
            "D5 E5 F4 H2 J2 H1 J1",
            0,
            Color::Black,
        ),
    ];
    for (f, black, white, captures, to_move) in cases {
        for strict in [false, true] {
            assert_eq!(outcome(f, strict), Ok(vec![]), "{f} strict {strict}");
        }
        let c = sgf::read_file(&fx(f), LENIENT).unwrap();
        let r = sgf::replay(&c.trees[0], &ReplayOptions::default()).unwrap();
        assert!(r.illegal.is_none(), "{f}: {:?}", r.illegal);
        let g = &r.game;
        g.board().check_invariants().unwrap();
        let n = g.size();
        let stones = |c: Color| {
            let mut v: Vec<Point> = g
                .board()
                .points()
                .filter(|&p| g.board().get(p) == Some(c))
                .collect();
            v.sort_by_key(|p| (p.y(), p.x()));
            v.iter()
                .map(|&p| Move::Play(p).to_gtp(n))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(stones(Color::Black), black, "{f}");
        assert_eq!(stones(Color::White), white, "{f}");
        assert_eq!(g.captures(Color::Black), captures, "{f}");
        assert_eq!(g.to_move(), to_move, "{f}");
        assert_eq!(r.moves_played, r.moves_in_record, "{f}");
    }
    // `loadsgf FILE N` counts moves as before (and as GNU Go does): the
    // setup node between moves 4 and 5 of ab-aw-after-moves.sgf is applied
    // by `loadsgf FILE 5`, not by `loadsgf FILE 4`.
    let c = sgf::read_file(&fx("setup-later/ab-aw-after-moves.sgf"), LENIENT).unwrap();
    let upto = |n: usize| {
        sgf::replay(
            &c.trees[0],
            &ReplayOptions {
                stop_before: Some(n),
                ..ReplayOptions::default()
            },
        )
        .unwrap()
        .game
    };
    let at = |g: &kosumi::Game, v: &str| {
        g.board().get(
            kosumi::point::parse_gtp_move(v, 9)
                .unwrap()
                .point()
                .unwrap(),
        )
    };
    let g = upto(4);
    assert_eq!(at(&g, "C7"), Some(Color::White), "move 2 was played");
    assert_eq!(at(&g, "C3"), None, "move 4 was not");
    assert_eq!(at(&g, "D7"), None, "nor the setup after it");
    let g = upto(5);
    assert_eq!(at(&g, "C3"), Some(Color::White), "move 4 was played");
    assert_eq!(at(&g, "D7"), Some(Color::Black), "the setup is applied");
    assert_eq!(at(&g, "G7"), Some(Color::White), "the setup is applied");
    assert_eq!(at(&g, "H7"), None, "move 5 (W[hc]) is not played");
    assert_eq!(g.to_move(), Color::White);
}
