// SPDX-License-Identifier: GPL-2.0
/*
 * docs/timeline.svg against its page: nothing is clipped, and every
 * label the picture names is a fact of docs/timeline.md.
 *
 * usage: timeline_test RSVG_CONVERT SVG MD
 *
 * Nothing clipped: the picture is rendered (rsvg-convert, fonts from
 * fonts-dejavu-core) on a canvas MARGIN pixels larger on every side, its
 * background kept to the picture's own area; any pixel drawn outside that
 * area belongs to an element that sticks out of the picture.  A copy with
 * a label put half outside on purpose must be caught, so the check is
 * shown to fail.
 *
 * Consistent: every event label of the picture (the events' names and
 * dates) appears in the page.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../runner/tap.h"

#define MARGIN 200

static const char *rsvg;
static char dir[] = "/tmp/timeline-test.XXXXXX";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	if (!f || getdelim(&buf, &cap, 0, f) < 0) {
		fprintf(stderr, "timeline_test: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	return buf;
}

/* @s with its first @old replaced by @new (a new string), or NULL. */
static char *replace_once(const char *s, const char *old, const char *new)
{
	const char *at = strstr(s, old);
	char *out;

	if (!at)
		return NULL;
	if (asprintf(&out, "%.*s%s%s", (int)(at - s), s, new, at + strlen(old)) < 0)
		exit(2);
	return out;
}

/* The picture on a canvas MARGIN larger on each side; NULL if its root differs. */
static char *enlarged(const char *svg, int w, int h)
{
	char old[128], new[128], *a;

	snprintf(old, sizeof(old), "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"", w, h, w, h);
	snprintf(new, sizeof(new), "width=\"%d\" height=\"%d\" viewBox=\"%d %d %d %d\"",
		 w + 2 * MARGIN, h + 2 * MARGIN, -MARGIN, -MARGIN,
		 w + 2 * MARGIN, h + 2 * MARGIN);
	a = replace_once(svg, old, new);
	if (!a)
		return NULL;
	/* Transparent outside: the background must cover the picture only. */
	snprintf(old, sizeof(old), "<rect width=\"%d\" height=\"%d\"", w, h);
	if (!strstr(a, old)) {
		free(a);
		return NULL;
	}
	return a;
}

/* Render @svg to a PNG; its pixels as RGBA, or NULL. */
static png_bytep render(const char *svg, const char *name, png_image *img)
{
	char in[256], out[256];
	png_bytep px;
	FILE *f;
	pid_t pid;
	int status;

	snprintf(in, sizeof(in), "%s/%s.svg", dir, name);
	snprintf(out, sizeof(out), "%s/%s.png", dir, name);
	f = fopen(in, "w");
	if (!f || fputs(svg, f) < 0 || fclose(f))
		return NULL;
	pid = fork();
	if (pid == 0) {
		execlp(rsvg, rsvg, "-o", out, in, (char *)NULL);
		fprintf(stderr, "timeline_test: %s not found: apt-get install librsvg2-bin (tests/setup tests)\n",
			rsvg);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return NULL;
	memset(img, 0, sizeof(*img));
	img->version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(img, out))
		return NULL;
	img->format = PNG_FORMAT_RGBA;
	px = malloc(PNG_IMAGE_SIZE(*img));
	if (!px || !png_image_finish_read(img, NULL, px, 0, NULL)) {
		free(px);
		return NULL;
	}
	return px;
}

struct drawn {
	long outside, dark_inside;
};

/* Pixels drawn outside the picture's area, and dark ones inside it. */
static bool count_drawn(const char *svg, const char *name, int w, int h, struct drawn *d)
{
	png_image img;
	png_bytep px = render(svg, name, &img);
	unsigned int x, y;

	memset(d, 0, sizeof(*d));
	if (!px)
		return false;
	for (y = 0; y < img.height; y++)
		for (x = 0; x < img.width; x++) {
			png_bytep p = px + 4 * ((size_t)y * img.width + x);
			bool in = x >= MARGIN && x < (unsigned int)(MARGIN + w) &&
				  y >= MARGIN && y < (unsigned int)(MARGIN + h);

			if (!in && p[3])
				d->outside++;
			if (in && p[3] && p[0] + p[1] + p[2] < 300)
				d->dark_inside++;
		}
	free(px);
	return true;
}

static void check_clipping(const char *svg)
{
	char *big, *broken, *bad_big, label[160];
	struct drawn d;
	bool rendered;
	int w, h;
	const char *root = strstr(svg, "<svg ");

	if (!root || sscanf(strstr(root, " width=") ? strstr(root, " width=") : "",
			    " width=\"%d\" height=\"%d\"", &w, &h) != 2) {
		tap(false, "the picture's root gives width and height");
		return;
	}
	big = enlarged(svg, w, h);
	tap(big != NULL, "the root is width, height and viewBox \"0 0 W H\", with a background of the same size");
	if (!big)
		return;
	snprintf(label, sizeof(label), "<text x=\"%d\" y=\"40\">clipped on purpose</text></svg>", w - 30);
	broken = replace_once(svg, "</svg>", label);
	bad_big = enlarged(broken, w, h);
	tap(count_drawn(bad_big, "broken", w, h, &d) && d.outside > 0,
	    "a label put half outside the picture on purpose is caught");
	rendered = count_drawn(big, "timeline", w, h, &d);
	tap(rendered && d.outside == 0 && d.dark_inside > 1000,
	    "nothing of the picture lies outside it, and it is drawn (%s: %ld pixels outside, %ld dark inside)",
	    rendered ? "rendered" : "not rendered", d.outside, d.dark_inside);
	free(big);
	free(broken);
	free(bad_big);
}

/* Does @md hold @label as a whole (not "Linux 6.1" inside "Linux 6.12")? */
static bool holds(const char *md, const char *label)
{
	size_t len = strlen(label);
	const char *p;

	for (p = strstr(md, label); p; p = strstr(p + 1, label))
		if ((p == md || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[len]) && p[len] != '.')
			return true;
	return false;
}

/* How many event labels (class "event") of @svg the page lacks; @labels: how many there are. */
static int missing_labels(const char *svg, const char *md, int *labels, bool say)
{
	const char *p = svg, *end;
	char label[256];
	int missing = 0;

	*labels = 0;
	while ((p = strstr(p, "class=\"event\">"))) {
		p += strlen("class=\"event\">");
		end = strstr(p, "</text>");
		if (!end || end - p >= (long)sizeof(label))
			return missing + 1;
		snprintf(label, sizeof(label), "%.*s", (int)(end - p), p);
		++*labels;
		if (!holds(md, label)) {
			if (say)
				printf("# the picture's label '%s' is not in the page\n", label);
			missing++;
		}
	}
	return missing;
}

static void check_labels(const char *svg, const char *md)
{
	char *broken = replace_once(svg, "</svg>", "<text class=\"event\">Linux 6.1</text>"
				    "<text class=\"event\">Linux 6</text></svg>");
	int labels, bad;

	tap(missing_labels(broken, md, &labels, false) == 1,
	    "a label the page has only inside another (Linux 6 in Linux 6.1), put in on purpose, is caught");
	free(broken);
	bad = missing_labels(svg, md, &labels, true);
	tap(!bad && labels > 0, "the picture's %d event labels are all in the page", labels);
}

int main(int argc, char **argv)
{
	char *svg, *md, cmd[300];

	if (argc != 4) {
		fprintf(stderr, "usage: timeline_test RSVG_CONVERT SVG MD\n");
		return 2;
	}
	rsvg = argv[1];
	svg = slurp(argv[2]);
	md = slurp(argv[3]);
	if (!mkdtemp(dir))
		return 2;
	check_clipping(svg);
	check_labels(svg, md);
	tap(strstr(md, "(timeline.svg)") != NULL, "the page shows the picture");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 2;
	return tap_end();
}
