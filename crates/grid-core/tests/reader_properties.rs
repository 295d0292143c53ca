#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Property tests of the case reader on random valid inputs and on corrupted copies of
//! them (fixed seeds): valid inputs read back exactly, whatever the line endings and blank
//! lines; every corruption is either still valid or reported at a real place.

use grid_core::RowEnd;
use grid_core::rng::SplitMix64;
use grid_core::{CaseReader, CharGrid, ErrorKind, ParseError};

/// One random case: its header values and rows.
#[derive(Debug, Clone)]
struct Case {
    rows: Vec<Vec<u8>>,
}

fn random_case(rng: &mut SplitMix64) -> Case {
    let (height, width) = (rng.between(1, 6), rng.between(1, 7));
    let alphabet = b"#. ab";
    let rows = (0..height)
        .map(|_| {
            (0..width)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        })
        .collect();
    Case { rows }
}

/// The text of `cases` with random `\n` / `\r\n` endings, blank lines between cases and
/// an optional `0 0` terminator; also the line number of every header.
fn render(rng: &mut SplitMix64, cases: &[Case]) -> (Vec<u8>, Vec<usize>) {
    let mut text = Vec::new();
    let mut line = 0;
    let mut headers = Vec::new();
    let end_line = |text: &mut Vec<u8>, rng: &mut SplitMix64| {
        text.extend_from_slice(if rng.percent(30) { b"\r\n" } else { b"\n" });
    };
    for case in cases {
        for _ in 0..rng.below(3) {
            end_line(&mut text, rng);
            line += 1;
        }
        text.extend_from_slice(format!("{} {}", case.rows.len(), case.rows[0].len()).as_bytes());
        end_line(&mut text, rng);
        line += 1;
        headers.push(line);
        for row in &case.rows {
            text.extend_from_slice(row);
            end_line(&mut text, rng);
            line += 1;
        }
    }
    if rng.percent(50) {
        text.extend_from_slice(b"0 0\n");
    }
    (text, headers)
}

/// Reads every case of `text` (rows exact, spaces are cells).
fn read_all(text: &[u8]) -> Result<Vec<(usize, CharGrid)>, ParseError> {
    let mut reader = CaseReader::new(text);
    let mut grids = Vec::new();
    while let Some(header) = reader.header(["height", "width"])? {
        if header.is_terminator() {
            break;
        }
        let height = header.bounded(0, "height", 1, 64, "")?;
        let width = header.bounded(1, "width", 1, 64, "")?;
        grids.push((header.line, reader.grid(height, width, RowEnd::Exact)?));
    }
    Ok(grids)
}

#[test]
fn valid_inputs_read_back_exactly() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..500 {
        let cases: Vec<Case> = (0..rng.between(1, 4))
            .map(|_| random_case(&mut rng))
            .collect();
        let (text, headers) = render(&mut rng, &cases);
        let grids =
            read_all(&text).unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&text)));
        assert_eq!(grids.len(), cases.len());
        for ((line, grid), (case, header)) in grids.iter().zip(cases.iter().zip(&headers)) {
            assert_eq!(line, header);
            for (r, row) in case.rows.iter().enumerate() {
                for (c, &byte) in row.iter().enumerate() {
                    assert_eq!(grid.byte(r, c), byte);
                }
            }
        }
    }
}

#[test]
fn corrupted_inputs_fail_at_a_real_place_or_still_parse() {
    let mut rng = SplitMix64::new(12);
    let (mut failed, mut kinds) = (0, [0usize; 3]);
    for round in 0..3000 {
        let cases: Vec<Case> = (0..rng.between(1, 3))
            .map(|_| random_case(&mut rng))
            .collect();
        let (mut text, _) = render(&mut rng, &cases);
        let at = rng.below(text.len());
        match round % 5 {
            0 => {
                text.remove(at);
            }
            1 => text.insert(at, [b'x', b'\n', b'9', 0xff, b' '][rng.below(5)]),
            2 => text.truncate(at),
            3 => text[at] = rng.below(256) as u8,
            _ => {
                let line_end = text[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(text.len(), |p| at + p);
                let copy = text[at..line_end].to_vec();
                text.splice(at..at, copy);
            }
        }
        let lines = text.split(|&b| b == b'\n').count();
        if let Err(e) = read_all(&text) {
            failed += 1;
            assert!(
                e.line >= 1 && e.line <= lines + 1,
                "line {} of {lines}: {e}",
                e.line
            );
            assert!(e.column >= 1, "{e}");
            let shown = e.to_string();
            assert!(shown.starts_with(&format!("line {}, column {}: ", e.line, e.column)));
            kinds[match e.kind {
                ErrorKind::Unexpected { .. } => 0,
                ErrorKind::TooLarge { .. } => 1,
                _ => 2,
            }] += 1;
        }
    }
    // The corruptions must actually exercise the error paths.
    assert!(
        failed > 1500,
        "only {failed} of 3000 corrupted inputs failed"
    );
    assert!(kinds[0] > 1000, "{kinds:?}");
}

#[test]
fn a_cut_off_case_is_an_error_and_a_short_row_is_located() {
    let mut rng = SplitMix64::new(13);
    for _ in 0..300 {
        let case = random_case(&mut rng);
        let header = format!("{} {}", case.rows.len(), case.rows[0].len());
        let rows: Vec<String> = case
            .rows
            .iter()
            .map(|r| String::from_utf8(r.clone()).unwrap())
            .collect();
        let lines: Vec<&str> = std::iter::once(header.as_str())
            .chain(rows.iter().map(String::as_str))
            .collect();
        // Drop the last row: the case is cut off.
        let cut = lines[..lines.len() - 1].join("\n");
        let e = read_all(cut.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("found end of input"), "{e}");
        // Shorten the first row by one byte: located at that row, one past its end.
        let width = case.rows[0].len();
        if width > 1 {
            let mut short: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            short[1].pop();
            let e = read_all(short.join("\n").as_bytes()).unwrap_err();
            assert_eq!((e.line, e.column), (2, width), "{e}");
        }
    }
}
