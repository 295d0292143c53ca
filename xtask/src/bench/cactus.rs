//! Cactus plots as small self-contained SVG files: for each solver, how many instances it
//! settled within x seconds, against x on a log scale.
//!
//! Written by hand rather than with a plotting crate: a plot is a few polylines, axes and
//! labels (about 120 lines here), where `plotters` with only its SVG backend adds a
//! dependency tree to every build of xtask. Curve `i` settles its `k`-th fastest instance
//! at `seconds[k]`, so it is a staircase through `(seconds[k], k + 1)`; building one is
//! O(n log n) in its instances (a sort), writing it O(n).

use std::fmt::Write as _;

/// One solver's line: the seconds of every instance it settled.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// The legend: solver and what is counted (`ours, proven`).
    pub label: String,
    /// Seconds of each settled instance, in any order.
    pub seconds: Vec<f64>,
    /// Drawn dashed (for counts of found but unproven answers beside proven ones).
    pub dashed: bool,
}

/// A plot: its title, how many instances were tried (the height of the y axis), the time
/// limit (the end of the x axis) and the curves.
#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    /// The title above the plot.
    pub title: String,
    /// The number of instances each solver was given.
    pub instances: usize,
    /// The limit per instance, in seconds.
    pub limit: f64,
    /// The lines, one per solver and count.
    pub curves: Vec<Curve>,
}

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 460.0;
/// Left, right, top and bottom margins of the plotting area (the legend is on the right).
const MARGIN: (f64, f64, f64, f64) = (60.0, 230.0, 40.0, 50.0);
/// The x axis starts at 1 ms: faster instances are drawn there.
const FIRST_SECONDS: f64 = 0.001;
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

impl Plot {
    /// The SVG text of the plot.
    pub fn svg(&self) -> String {
        let (left, right, top, bottom) = MARGIN;
        let (w, h) = (WIDTH - left - right, HEIGHT - top - bottom);
        let last = self.limit.max(FIRST_SECONDS * 10.0);
        let decades = (last / FIRST_SECONDS).log10();
        let x =
            |s: f64| left + w * (s.clamp(FIRST_SECONDS, last) / FIRST_SECONDS).log10() / decades;
        let top_count = self.instances.max(1) as f64;
        let y = |n: f64| top + h * (1.0 - n / top_count);
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
             width=\"{WIDTH}\" height=\"{HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
             <text x=\"{left}\" y=\"24\" font-size=\"15\">{}</text>\n",
            escape(&self.title)
        );
        // Axes, with a tick at each power of ten and at the limit, and five count ticks.
        let _ = writeln!(
            out,
            "<path d=\"M{left} {top}V{}H{}\" fill=\"none\" stroke=\"black\"/>",
            top + h,
            left + w
        );
        let mut tick = FIRST_SECONDS;
        while tick <= last * 1.0001 {
            let tx = x(tick);
            let _ = writeln!(
                out,
                "<path d=\"M{tx:.1} {top}V{}\" stroke=\"#ddd\"/><text x=\"{tx:.1}\" y=\"{}\" \
                 text-anchor=\"middle\">{}</text>",
                top + h,
                top + h + 16.0,
                seconds_label(tick)
            );
            tick *= 10.0;
        }
        for i in 0..=5 {
            let n = (top_count * f64::from(i) / 5.0).round();
            let _ = writeln!(
                out,
                "<path d=\"M{left} {0:.1}H{1}\" stroke=\"#eee\"/><text x=\"{2}\" y=\"{3:.1}\" \
                 text-anchor=\"end\">{n}</text>",
                y(n),
                left + w,
                left - 6.0,
                y(n) + 4.0
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">seconds per instance (log scale; limit {})</text>\n\
             <text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">instances settled (of {})</text>",
            left + w / 2.0,
            HEIGHT - 12.0,
            seconds_label(self.limit),
            top + h / 2.0,
            self.instances
        );
        for (i, curve) in self.curves.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let dash = if curve.dashed {
                " stroke-dasharray=\"6 4\""
            } else {
                ""
            };
            let mut seconds = curve.seconds.clone();
            seconds.sort_by(f64::total_cmp);
            let mut path = format!("M{:.1} {:.1}", x(FIRST_SECONDS), y(0.0));
            for (k, &s) in seconds.iter().enumerate() {
                let _ = write!(path, "H{:.1}V{:.1}", x(s), y(k as f64 + 1.0));
            }
            let _ = write!(path, "H{:.1}", x(last));
            let ly = top + 10.0 + 18.0 * i as f64;
            let lx = left + w + 16.0;
            let _ = writeln!(
                out,
                "<path d=\"{path}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>\n\
                 <path d=\"M{lx} {ly}h24\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>\
                 <text x=\"{}\" y=\"{}\">{} ({})</text>",
                lx + 30.0,
                ly + 4.0,
                escape(&curve.label),
                seconds.len()
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

/// `0.001 s`, `1 s`, `60 s`: short and exact for the ticks.
fn seconds_label(seconds: f64) -> String {
    format!("{} s", (seconds * 1000.0).round() / 1000.0)
}

/// Text with the XML specials escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plot() -> Plot {
        Plot {
            title: "mapf <sum of costs>".to_owned(),
            instances: 4,
            limit: 10.0,
            curves: vec![
                Curve {
                    label: "ours".to_owned(),
                    seconds: vec![2.0, 0.01],
                    dashed: false,
                },
                Curve {
                    label: "lacam2 & co".to_owned(),
                    seconds: vec![],
                    dashed: true,
                },
            ],
        }
    }

    #[test]
    fn each_curve_is_a_staircase_through_its_sorted_times() {
        let svg = plot().svg();
        // x: 60 + 470 * log10(s / 0.001) / 4; y: 40 + 370 * (1 - n / 4).
        assert!(
            svg.contains("d=\"M60.0 410.0H177.5V317.5H447.9V225.0H530.0\""),
            "{svg}"
        );
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.contains(">ours (2)</text>"));
        assert!(svg.contains(">lacam2 &amp; co (0)</text>"));
        assert!(svg.contains("mapf &lt;sum of costs&gt;"));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox="));
        assert!(svg.ends_with("</svg>\n"));
    }

    #[test]
    fn the_x_axis_has_a_tick_per_decade_up_to_the_limit() {
        let svg = plot().svg();
        for label in ["0.001 s", "0.01 s", "0.1 s", "1 s", "10 s"] {
            assert!(svg.contains(&format!(">{label}</text>")), "{label}");
        }
        assert!(!svg.contains(">100 s</text>"));
    }
}
