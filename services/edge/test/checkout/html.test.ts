import { describe, expect, it } from "vitest";
import { escapeHtml, html, joinHtml, SafeHtml } from "../../src/checkout/html.js";

describe("the html template helper", () => {
  it("when text holds markup, then every special character is escaped", () => {
    const name = `<script>alert("x")</script> & 'quotes' \`tick\``;
    expect(html`<p>${name}</p>`.text).toBe(
      "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; &#96;tick&#96;</p>",
    );
  });

  it("when a value sits in an attribute, then it cannot close the attribute", () => {
    const evil = `" onmouseover="alert(1)`;
    expect(html`<a title="${evil}">x</a>`.text).toBe('<a title="&quot; onmouseover=&quot;alert(1)">x</a>');
  });

  it("when a fragment is itself html, then it is kept as markup and its own values stay escaped", () => {
    const inner = html`<strong>${"<b>"}</strong>`;
    expect(html`<p>${inner}</p>`.text).toBe("<p><strong>&lt;b&gt;</strong></p>");
  });

  it("when values are lists, numbers or absent, then lists join, numbers print and absent values vanish", () => {
    const items = ["<a>", "b"].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${0}${null}${undefined}${false}`.text).toBe(
      "<ul><li>&lt;a&gt;</li><li>b</li></ul>0",
    );
  });

  it("when a plain object pretends to be markup, then it is escaped like text", () => {
    const fake = { text: "<script>x</script>", toString: () => "<script>x</script>" } as unknown as string;
    expect(html`${fake}`.text).toBe("&lt;script&gt;x&lt;/script&gt;");
    expect(html`${new SafeHtml("<br>")}`.text).toBe("<br>");
  });

  it("joins fragments with an escaped separator", () => {
    expect(joinHtml(["a<", html`<i>b</i>`], " & ").text).toBe("a&lt; &amp; <i>b</i>");
    expect(escapeHtml("plain")).toBe("plain");
  });

  it("when special characters sit at either end, side by side or between other scripts, then each one is escaped and nothing else changes", () => {
    expect(escapeHtml("&")).toBe("&amp;");
    expect(escapeHtml("<>")).toBe("&lt;&gt;");
    expect(escapeHtml(`'a"`)).toBe("&#39;a&quot;");
    expect(escapeHtml("`x&&y`")).toBe("&#96;x&amp;&amp;y&#96;");
    expect(escapeHtml("د.ت 125,500 & 😀<")).toBe("د.ت 125,500 &amp; 😀&lt;");
    expect(escapeHtml("")).toBe("");
  });

  it("escapes any text exactly as a replacement of each special character would", () => {
    const alphabet = ["a", "Z", " ", "&", "<", ">", '"', "'", "`", "é", "😀", "\n", ";", "#"];
    const reference = (text: string) =>
      text.replace(
        /[&<>"'`]/g,
        (ch) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39", "`": "#96" }[ch]};`,
      );
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 1);
    for (let n = 0; n < 2_000; n++) {
      const text = Array.from({ length: next() % 24 }, () => alphabet[next() % alphabet.length]).join("");
      expect(escapeHtml(text)).toBe(reference(text));
    }
  });
});
