//! The SVG writer, read back as XML: on random grids with random walks of random sprites,
//! every frame, fill, wall and mark written is the one recorded.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{self, Write};

use grid_core::rng::SplitMix64;
use grid_core::svg::{Colour, Look, Mark, Picture, Place, Recording, Shape, Sprite, Timing};

fn render(picture: &Picture, frames: &Recording) -> String {
    let mut out = Vec::new();
    picture.write(&mut out, frames).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn random_pictures_read_back_as_recorded() {
    let mut rng = SplitMix64::new(0x5f6);
    for round in 0..300 {
        let height = 1 + rng.below(12);
        let width = 1 + rng.below(12);
        let wall_percent = rng.below(60) as u32;
        let grid = test_support::random_grid(&mut rng, height, width, wall_percent);
        let mut picture = Picture::from_grid(&grid);
        let sprites = rng.below(5);
        let looks = [Look::Plain, Look::Pushed, Look::Arrived];
        for i in 0..sprites {
            let shape = if i % 2 == 0 {
                Shape::Circle
            } else {
                Shape::RoundedSquare
            };
            let label = ["A", "bc", "<&>", "12", ""][i % 5];
            let sprite = Sprite::new(shape, label, Colour::palette(i))
                .with_look(Look::Pushed, Colour::PUSHED)
                .with_look(Look::Arrived, Colour::ARRIVED);
            assert_eq!(picture.add_sprite(sprite), i);
        }
        let mut marks = Vec::new();
        let mut rings = Vec::new();
        for _ in 0..rng.below(4) {
            let at = (rng.below(height), rng.below(width));
            let label = (rng.below(2) == 0).then(|| ["m", "1234"][rng.below(2)].to_owned());
            let mut mark = Mark::new(at.0, at.1, Colour::TARGET);
            if let Some(l) = &label {
                mark = mark.with_label(l.clone());
            }
            if rng.below(2) == 0 {
                mark = mark.with_ring();
                rings.push(at);
            }
            picture.add_mark(mark);
            marks.push((at, label));
        }
        let frame_count = rng.below(40);
        let mut frames = Recording::new(sprites);
        let mut expected = vec![Vec::new(); sprites];
        for _ in 0..frame_count {
            let places: Vec<Place> = (0..sprites)
                .map(|_| {
                    let look = looks[rng.below(if round % 3 == 0 { 1 } else { 3 })];
                    Place::at(rng.below(height), rng.below(width)).look(look)
                })
                .collect();
            for (i, p) in places.iter().enumerate() {
                expected[i].push(*p);
            }
            frames.push_frame(&places);
        }
        assert_eq!(frames.frame_count(), frame_count);
        let drawing = test_support::svg_reading::read(&render(&picture, &frames));
        assert_eq!(drawing.size, (width, height));
        assert_eq!(drawing.frames, frame_count);
        let walls: Vec<_> = (0..height)
            .flat_map(|r| (0..width).map(move |c| (r, c)))
            .filter(|&(r, c)| grid.cell(r, c).is_none())
            .collect();
        assert_eq!(drawing.walls, walls, "round {round}");
        assert_eq!(drawing.marks, marks);
        assert_eq!(drawing.rings, rings, "a ring for each mark made with one");
        assert!(drawing.rings_over_sprites, "rings drawn after the sprites");
        let captions: Vec<_> = (0..frame_count)
            .map(|k| format!("step {k} / {}", frame_count - 1))
            .collect();
        assert_eq!(drawing.captions, captions, "round {round}");
        if frame_count == 0 {
            assert!(drawing.sprites.is_empty(), "no frame: the level alone");
            continue;
        }
        assert_eq!(drawing.sprites.len(), sprites);
        for (i, track) in drawing.sprites.iter().enumerate() {
            let places: Vec<_> = expected[i].iter().map(|p| (p.row, p.col)).collect();
            assert_eq!(track.places, places);
            let fill = |look: Look| {
                match look {
                    Look::Plain => Colour::palette(i),
                    Look::Pushed => Colour::PUSHED,
                    Look::Arrived => Colour::ARRIVED,
                }
                .to_string()
            };
            let fills: Vec<_> = expected[i].iter().map(|p| fill(p.look)).collect();
            assert_eq!(track.fills, fills);
            assert_eq!(track.label, ["A", "bc", "<&>", "12", ""][i % 5]);
        }
    }
}

#[test]
fn timing_sets_the_duration_and_the_key_times() {
    let mut picture = Picture::new(1, 3, |_, _| false);
    picture.add_sprite(Sprite::new(Shape::Circle, "a", Colour::palette(0)));
    picture.set_timing(Timing {
        step_ms: 250,
        pause_ms: 1000,
    });
    picture.set_title("one & two");
    let mut frames = Recording::new(1);
    for col in 0..3 {
        frames.push_frame(&[Place::at(0, col)]);
    }
    let text = render(&picture, &frames);
    // Frames at 0, 250 and 500 ms of 1500: the last one stays for the pause.
    assert!(text.contains(r#"dur="1500ms""#), "{text}");
    assert!(text.contains(r#"keyTimes="0;.167;.333""#), "{text}");
    assert!(text.contains("<title>one &amp; two</title>"), "{text}");
    assert_eq!(
        test_support::svg_reading::read(&text).sprites[0].places,
        [(0, 0), (0, 1), (0, 2)]
    );
}

#[test]
fn pictures_open_at_a_size_that_fits_a_window() {
    for (height, width) in [
        (1, 1),
        (3, 7),
        (24, 10),
        (24, 24),
        (25, 3),
        (60, 161),
        (4096, 4096),
    ] {
        let picture = Picture::new(height, width, |r, c| (r + c) % 7 == 0);
        for frame_count in [0, 1, 3] {
            let mut frames = Recording::new(0);
            for _ in 0..frame_count {
                frames.push_frame(&[]);
            }
            let drawing = test_support::svg_reading::read(&render(&picture, &frames));
            let long = height.max(width) as f64 + 0.5;
            // Pixels per cell: 40 on grids up to 24 cells a side (the size they had
            // before the limit), less on larger ones, so the longer side is <= 1000 px.
            let cell = if long <= 25.0 { 40.0 } else { 1000.0 / long };
            // The caption band under the grid: 24 px at the default size, on any grid.
            let band = if frame_count == 0 { 0.0 } else { 24.0 };
            let (w, h) = (width as f64 + 0.5, height as f64 + 0.5);
            let near = |a: f64, b: f64| (a - b).abs() <= 0.51;
            assert!(
                near(drawing.pixels.0, w * cell) && near(drawing.pixels.1, h * cell + band),
                "{height} x {width}: {:?} px, {cell} px a cell",
                drawing.pixels
            );
            assert!(w.max(h) * cell <= 1000.0 + 1e-9);
            assert!(
                (drawing.view.1 - h - band / cell).abs() < 0.002,
                "{:?}",
                drawing.view
            );
            assert_eq!(drawing.captions.len(), frame_count);
        }
    }
}

#[test]
fn the_caption_counts_the_steps_on_the_sprites_key_times() {
    let mut picture = Picture::new(1, 5, |_, _| false);
    picture.add_sprite(Sprite::new(Shape::Circle, "a", Colour::palette(0)));
    let mut frames = Recording::new(1);
    for col in 0..5 {
        frames.push_frame(&[Place::at(0, col)]);
    }
    let text = render(&picture, &frames);
    // Frame k of 4 shows "step k / 4" from k x 300 ms to (k + 1) x 300 ms of 2700 (the reader
    // checks the times against the sprite's).
    let drawing = test_support::svg_reading::read(&text);
    assert_eq!(
        drawing.captions,
        [
            "step 0 / 4",
            "step 1 / 4",
            "step 2 / 4",
            "step 3 / 4",
            "step 4 / 4"
        ]
    );
    assert!(
        text.contains(r#"keyTimes="0;.111;.222" values="hidden;visible;hidden""#),
        "{text}"
    );
}

#[test]
fn large_grids_cost_their_wall_runs_not_their_cells() {
    // A 1024 x 1024 room: walls only on the border, so 2 + 2 x 1022 runs.
    let n = 1024;
    let picture = Picture::new(n, n, |r, c| r == 0 || c == 0 || r == n - 1 || c == n - 1);
    assert_eq!(picture.wall_run_count(), 2 + 2 * (n - 2));
    let text = render(&picture, &Recording::new(0));
    assert!(
        text.len() < 40 * picture.wall_run_count(),
        "{} bytes",
        text.len()
    );
    let drawing = test_support::svg_reading::read(&text);
    assert_eq!(drawing.walls.len(), 4 * n - 4);
}

/// A writer that fails once `room` bytes are written.
struct Full {
    room: usize,
}

impl Write for Full {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.len() > self.room {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "no room"));
        }
        self.room -= buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn write_errors_are_returned() {
    let mut picture = Picture::new(4, 4, |r, _| r == 0);
    picture.add_mark(Mark::new(1, 1, Colour::TARGET).with_label("x"));
    picture.add_sprite(Sprite::new(Shape::Circle, "a", Colour::palette(0)));
    let mut frames = Recording::new(1);
    frames.push_frame(&[Place::at(1, 1)]);
    frames.push_frame(&[Place::at(2, 1)]);
    let whole = render(&picture, &frames).len();
    for room in [0, 10, whole / 2, whole - 1] {
        let e = picture.write(&mut Full { room }, &frames).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
    }
    picture.write(&mut Full { room: whole }, &frames).unwrap();
}
