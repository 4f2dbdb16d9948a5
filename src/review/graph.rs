//! The review's graph: Black's win rate (left axis, percent) and Black's
//! score lead (right axis, points) after each move, with the mistakes
//! (orange) and blunders (red) marked on the win-rate line; drawn with
//! `plotters`.
//!
//! The SVG has a title, axis labels and numbers (SVG text, drawn by the
//! viewer). The PNG is a bitmap with no text at all: plotters draws
//! bitmap text only with a font crate and a font file, and Kosumi ships no
//! font; the PNG has the same lines, marks and grid (a dashed line at
//! 50%, light lines at 25% and 75%, a light vertical line every 50 moves).

use crate::review::core::Verdict;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One point of the graph: after move `x` (0: the start).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphPoint {
    /// Moves played.
    pub x: usize,
    /// Black's win rate, percent.
    pub winrate: f64,
    /// Black's score lead, points.
    pub lead: f64,
    /// The verdict of the move that led here (none at the start).
    pub verdict: Option<Verdict>,
}

const WR: RGBColor = RGBColor(31, 90, 200);
const LEAD: RGBColor = RGBColor(40, 150, 60);
const MISTAKE: RGBColor = RGBColor(240, 150, 0);
const BLUNDER: RGBColor = RGBColor(220, 30, 30);
const GRID: RGBColor = RGBColor(200, 200, 200);

fn lead_range(points: &[GraphPoint]) -> f64 {
    let m = points.iter().map(|p| p.lead.abs()).fold(10.0, f64::max);
    (m * 1.1).ceil()
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    points: &[GraphPoint],
    title: Option<&str>,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let n = points.iter().map(|p| p.x).max().unwrap_or(0).max(1) as f64;
    let lr = lead_range(points);
    let text = title.is_some();
    let mut builder = ChartBuilder::on(root);
    builder.margin(12);
    if let Some(t) = title {
        builder
            .caption(t, ("sans-serif", 18))
            .x_label_area_size(40)
            .y_label_area_size(50)
            .right_y_label_area_size(50);
    }
    let mut chart = builder
        .build_cartesian_2d(0f64..n, 0f64..100f64)
        .map_err(e)?
        .set_secondary_coord(0f64..n, -lr..lr);
    if text {
        chart
            .configure_mesh()
            .disable_x_mesh()
            .disable_y_mesh()
            .x_labels((n as usize + 1).min(11))
            .x_label_formatter(&|x| format!("{}", x.round()))
            .x_desc("move")
            .y_desc("Black's win rate (%, blue; dots: red blunder, orange mistake)")
            .draw()
            .map_err(e)?;
        chart
            .configure_secondary_axes()
            .y_desc("Black's lead (points, green)")
            .draw()
            .map_err(e)?;
    }
    // Grid by hand (no text).
    for y in [25.0, 75.0] {
        chart
            .draw_series(LineSeries::new([(0.0, y), (n, y)], GRID))
            .map_err(e)?;
    }
    chart
        .draw_series(DashedLineSeries::new(
            [(0.0, 50.0), (n, 50.0)],
            4,
            4,
            ShapeStyle::from(&BLACK.mix(0.5)),
        ))
        .map_err(e)?;
    let mut x = 50.0;
    while x < n {
        chart
            .draw_series(LineSeries::new([(x, 0.0), (x, 100.0)], GRID))
            .map_err(e)?;
        x += 50.0;
    }
    chart
        .draw_secondary_series(LineSeries::new(
            points.iter().map(|p| (p.x as f64, p.lead)),
            LEAD.stroke_width(1),
        ))
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|p| (p.x as f64, p.winrate)),
            WR.stroke_width(2),
        ))
        .map_err(e)?;
    chart
        .draw_series(points.iter().filter_map(|p| {
            let c = match p.verdict? {
                Verdict::Blunder => BLUNDER,
                Verdict::Mistake => MISTAKE,
                _ => return None,
            };
            Some(Circle::new((p.x as f64, p.winrate), 5, c.filled()))
        }))
        .map_err(e)?;
    root.present().map_err(|x| x.to_string())?;
    Ok(())
}

/// The graph as SVG text, titled `title`.
///
/// # Errors
/// A drawing error, as text.
pub fn svg(points: &[GraphPoint], title: &str) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (1000, 450)).into_drawing_area();
        draw(&root, points, Some(title))?;
    }
    Ok(out)
}

/// The graph as a PNG file at `path` (no text; see the module docs).
///
/// # Errors
/// A drawing or writing error, as text.
pub fn png(points: &[GraphPoint], path: &std::path::Path) -> Result<(), String> {
    let root = BitMapBackend::new(path, (1000, 450)).into_drawing_area();
    draw(&root, points, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points() -> Vec<GraphPoint> {
        (0..=60)
            .map(|x| GraphPoint {
                x,
                winrate: 50.0 + (x as f64 / 3.0).sin() * 30.0,
                lead: x as f64 / 4.0 - 5.0,
                verdict: match x {
                    17 => Some(Verdict::Blunder),
                    40 => Some(Verdict::Mistake),
                    _ => Some(Verdict::Good),
                },
            })
            .collect()
    }

    #[test]
    fn svg_has_the_lines_the_marks_and_the_labels() {
        let s = svg(&points(), "test game").unwrap();
        assert!(s.starts_with("<svg"));
        assert!(s.contains("test game"));
        assert!(s.contains("Black&apos;s win rate") || s.contains("Black's win rate"));
        // One filled circle per marked move.
        assert_eq!(s.matches("<circle").count(), 2, "{s}");
    }

    #[test]
    fn png_is_written_without_a_font() {
        let dir = std::env::temp_dir().join(format!("kosumi-graph-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.png");
        png(&points(), &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
