import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { analyzerNames, getAnalyzer, languages } from '../../../src/engine/analysis/index.js';

/** Every token of `text` by `analyzer`: its source slice (by offsets), term and position. */
function tokens(name: string, text: string): { surface: string; term: string; position: number }[] {
  const out: { surface: string; term: string; position: number }[] = [];
  getAnalyzer(name).analyze(text, (term, position, start, end) => out.push({ surface: text.slice(start, end), term, position }));
  return out;
}

/**
 * A real sentence per language, and what a speaker can tell about it without running any stemmer:
 * `stops` are function words (articles, conjunctions, prepositions) the stop list must drop;
 * `same` are two inflections of one word (plural and singular, two cases, two persons) that must
 * meet on one term; that term must be shorter than both, which shows a stemmer ran.
 */
interface Case {
  readonly code: string;
  readonly text: string;
  readonly stops: readonly string[];
  readonly same?: readonly [string, string];
}

const cases: readonly Case[] = [
  { code: 'de', text: 'Die Kinder spielen im Garten, und das Kind liest ein Buch.', stops: ['Die', 'und', 'das', 'im', 'ein'], same: ['Kinder', 'Kind'] },
  { code: 'fr', text: "Les enfants jouent dans le jardin et l'enfant joue avec les chats.", stops: ['Les', 'dans', 'le', 'et', 'avec'], same: ['enfants', "l'enfant"] },
  { code: 'es', text: 'Los niños juegan en el parque y el niño juega con los gatos.', stops: ['el', 'y'], same: ['niños', 'niño'] },
  { code: 'it', text: "I bambini giocano nel giardino e il bambino gioca con l'amico degli amici.", stops: ['I', 'nel', 'e', 'il', 'con', 'degli'], same: ["l'amico", 'amici'] },
  { code: 'pt', text: 'Os meninos brincam no jardim e o menino brinca com os gatos.', stops: ['Os', 'no', 'e', 'o', 'com'], same: ['meninos', 'menino'] },
  { code: 'br', text: 'Os meninos brincam no jardim e o menino brinca com os gatos.', stops: ['Os', 'no', 'e', 'com'], same: ['brincam', 'brinca'] },
  { code: 'nl', text: 'De kat zit in de tuin en de katten spelen met het kind.', stops: ['De', 'in', 'en', 'met', 'het'], same: ['kat', 'katten'] },
  { code: 'sv', text: 'Barnen leker i trädgården och ett barn läser med katterna.', stops: ['i', 'och', 'ett', 'med'], same: ['Barnen', 'barn'] },
  { code: 'no', text: 'Barna leker i hagen og barnet leker med kattene.', stops: ['i', 'og', 'med'], same: ['Barna', 'barnet'] },
  { code: 'da', text: 'Katten sover i haven, og kattene leger med børnene.', stops: ['i', 'og', 'med'], same: ['Katten', 'kattene'] },
  { code: 'fi', text: 'Talossa on kaksi huonetta ja talon katto on punainen.', stops: ['on', 'ja'], same: ['Talossa', 'talon'] },
  { code: 'ru', text: 'Дети играют в саду, и ребёнок играл с кошками и кошкой.', stops: ['в', 'и', 'с'], same: ['кошками', 'кошкой'] },
  { code: 'hu', text: 'A gyerekek a házban játszanak, és a ház nagyon szép.', stops: ['A', 'a', 'és'], same: ['házban', 'ház'] },
  { code: 'ro', text: 'Copilul citește o carte și cartea este frumoasă.', stops: ['și', 'este'], same: ['carte', 'cartea'] },
  { code: 'tr', text: 'Bu çocuklar parkta oynuyor ve o çocuk çok mutlu.', stops: ['ve', 'çok', 'Bu'], same: ['çocuklar', 'çocuk'] },
  { code: 'ar', text: 'قرأ الطالب الكتاب في المكتبة وهذا كتاب جميل', stops: ['في'], same: ['الكتاب', 'كتاب'] },
  { code: 'el', text: 'Ο κήπος είναι μεγάλος και τα λουλούδια του κήπου είναι όμορφα.', stops: ['Ο', 'και', 'τα', 'του'], same: ['κήπος', 'κήπου'] },
  { code: 'ca', text: "Els nens juguen al jardí i el nen llegeix l'obra.", stops: ['Els', 'al', 'i', 'el'], same: ['nens', 'nen'] },
  { code: 'eu', text: 'Mendiak altuak dira eta mendian elurra dago.', stops: ['eta'], same: ['Mendiak', 'mendian'] },
  { code: 'ga', text: 'Tá gairdín mór againn agus tá bláthanna sa ghairdín.', stops: ['agus', 'sa'], same: ['gairdín', 'ghairdín'] },
  { code: 'hi', text: 'लड़के स्कूल में पढ़ते हैं और लड़का खेलता है।', stops: ['में', 'और', 'है'], same: ['लड़के', 'लड़का'] },
  { code: 'id', text: 'Anak itu membaca buku yang dibelinya dan membacakan bukunya.', stops: ['itu', 'yang', 'dan'], same: ['membaca', 'membacakan'] },
  { code: 'lt', text: 'Vaikai žaidžia sode, o vaikas skaito knygą apie knygas.', stops: ['o', 'apie'], same: ['Vaikai', 'vaikas'] },
  { code: 'sr', text: 'Deca se igraju u parku i dete čita knjigu o knjigama.', stops: ['se', 'u', 'i', 'o'], same: ['knjigu', 'knjigama'] },
  { code: 'hy', text: 'Երեխաները խաղում են այգում, և երեխան կարդում է գիրք։', stops: ['են', 'և', 'է'], same: ['Երեխաները', 'երեխան'] },
  { code: 'bg', text: 'Децата играят в парка и детето чете книгата, а книгите са нови.', stops: ['в', 'и', 'а', 'са'], same: ['книгата', 'книгите'] },
  { code: 'ta', text: 'நான் புத்தகத்தை படித்தேன் மற்றும் அவர் புத்தகங்கள் வாங்கினார்', stops: ['மற்றும்'], same: ['புத்தகத்தை', 'புத்தகங்கள்'] },
  { code: 'cz', text: 'Děti si hrají na zahradě a dítě čte knihu o knihách.', stops: ['si', 'na', 'a', 'o'], same: ['knihu', 'knihách'] },
  { code: 'ua', text: 'Діти граються в парку, і дитина читає книжку з книжками.', stops: ['в', 'і', 'з'], same: ['книжку', 'книжками'] },
  // Languages with a stop list but no maintained JavaScript stemmer (docs/config.md).
  { code: 'et', text: 'Lapsed mängivad aias ja laps loeb raamatut.', stops: ['ja'] },
  { code: 'lv', text: 'Bērni spēlējas dārzā un bērns lasa grāmatu.', stops: ['un'] },
  { code: 'gl', text: 'Os nenos xogan no xardín e o neno le un libro.', stops: ['Os', 'no', 'e', 'o', 'un'] },
  { code: 'pl', text: 'Dzieci bawią się w ogrodzie i dziecko czyta książkę.', stops: ['się', 'w', 'i'] },
  { code: 'fa', text: 'بچه‌ها در باغ بازی می‌کنند و کودک کتاب می‌خواند.', stops: ['در', 'و'] },
  { code: 'th', text: 'ฉันชอบกินข้าวและดื่มน้ำ', stops: ['และ'] },
];

describe('language analyzers', () => {
  it('accept every code and name of Nixiesearch 0.8', () => {
    // Language.scala of Nixiesearch 0.8.0, as code/name pairs.
    const nixiesearch =
      'default en english ar arabic bg bulgarian bn bengali br brazilian ca catalan zh chinese ckb sorani cz czech da danish de german el greek es spanish et estonian eu basque fa persian fi finnish fr french ga irish gl galician hi hindi hu hungarian hy armenian id indonesian it italian lt lithuanian lv latvian nl dutch no norwegian pt portuguese ro romanian ru russian sr serbian sv swedish th thai tr turkish jp japanese pl polish kr korean ta tamil ua ukrainian';
    for (const name of nixiesearch.split(' ')) {
      assert.ok(analyzerNames.includes(name), name);
      assert.equal(getAnalyzer(name).name, name);
    }
  });

  it('give a language code and its name the same terms', () => {
    for (const spec of languages) {
      const text = cases.find((c) => c.code === spec.code)?.text ?? 'Some text 123';
      assert.deepEqual(tokens(spec.name, text), tokens(spec.code, text), spec.code);
    }
  });

  for (const c of cases) {
    it(`${c.code}: drops stop words, keeps their positions${c.same === undefined ? '' : ' and conflates inflections'}`, () => {
      const out = tokens(c.code, c.text);
      const surfaces = out.map((t) => t.surface);
      for (const stop of c.stops) assert.ok(!surfaces.includes(stop), `${c.code}: "${stop}" should be a stop word; got ${surfaces.join(' ')}`);
      // Dropped words leave gaps: the last position is past the count of kept tokens.
      assert.ok(out[out.length - 1].position >= out.length, `${c.code}: positions ${out.map((t) => t.position).join(',')}`);
      if (c.same !== undefined) {
        const [a, b] = c.same.map((s) => out.find((t) => t.surface === s));
        assert.ok(a !== undefined && b !== undefined, `${c.code}: both of ${c.same.join(', ')} are indexed; got ${surfaces.join(' ')}`);
        assert.equal(a.term, b.term, `${c.code}: ${c.same.join(' / ')}`);
        assert.ok(a.term.length < Math.max(a.surface.length, b.surface.length), `${c.code}: ${a.term} is a stem`);
      }
    });
  }

  it('fold Turkish I to dotless ı and İ to i, and drop suffixes after an apostrophe', () => {
    const out = tokens('tr', "İstanbul'da hava ILIK, Istanbul’da değil");
    assert.equal(out[0].term, 'istanbul');
    assert.equal(out[0].surface, "İstanbul'da");
    // "ILIK" is "ılık" (lukewarm): both I are dotless; the stemmer leaves the adjective alone.
    assert.ok(out[2].term.startsWith('ılı'), out[2].term);
    // "Istanbul" with a dotless capital is a different word from "İstanbul" in Turkish.
    assert.equal(out[3].term, 'ıstanbul');
  });

  it('remove Arabic diacritics and fold alef forms', () => {
    const [plain] = tokens('ar', 'كتاب');
    const [vowelled] = tokens('ar', 'كِتَابٌ');
    assert.equal(vowelled.term, plain.term);
    const [hamza] = tokens('ar', 'أحمد');
    const [bare] = tokens('ar', 'احمد');
    assert.equal(hamza.term, bare.term);
  });

  it('lowercase Greek without accents and with a plain sigma, so capitals match', () => {
    assert.deepEqual(
      tokens('el', 'ΚΉΠΟΣ').map((t) => t.term),
      tokens('el', 'κήπος').map((t) => t.term),
    );
  });

  it('strip elided articles in French, Italian, Catalan and Irish', () => {
    assert.equal(tokens('fr', "l'homme")[0].term, tokens('fr', 'homme')[0].term);
    assert.equal(tokens('fr', 'qu’il')[0]?.term, undefined); // "il" is then a stop word
    assert.equal(tokens('it', "dell'arte")[0].term, tokens('it', 'arte')[0].term);
    assert.equal(tokens('ca', "d'aigua")[0].term, tokens('ca', 'aigua')[0].term);
    assert.equal(tokens('ga', "d'fhéach")[0].surface, "d'fhéach");
  });

  it('give Serbian in Cyrillic and in Latin letters the same terms', () => {
    // "Deca čitaju knjige i igraju se." in both of Serbian's scripts.
    assert.deepEqual(
      tokens('sr', 'Деца читају књиге и играју се.').map((t) => t.term),
      tokens('sr', 'Deca čitaju knjige i igraju se.').map((t) => t.term),
    );
  });

  it('match Romanian s and t with comma below and with cedilla', () => {
    assert.deepEqual(
      tokens('ro', 'științe').map((t) => t.term),
      tokens('ro', 'ştiinţe').map((t) => t.term),
    );
  });

  it('segment Chinese, Japanese and Thai into dictionary words with their offsets', () => {
    // 我们 (we) 喜欢 (like) 学习 (study) 中文 (Chinese); 東京 (Tokyo); ข้าว (rice) น้ำ (water).
    assert.deepEqual(tokens('zh', '我们喜欢学习中文').map((t) => t.term), ['我们', '喜欢', '学习', '中文']);
    const ja = tokens('ja', '私は東京に住んでいます');
    assert.ok(ja.some((t) => t.term === '東京' && t.surface === '東京'));
    const th = tokens('th', 'ฉันชอบกินข้าวและดื่มน้ำ');
    for (const word of ['ชอบ', 'กิน', 'ข้าว', 'ดื่ม', 'น้ำ']) assert.ok(th.some((t) => t.term === word && t.surface === word), word);
  });

  it('report offsets that slice each token out of the source text', () => {
    for (const c of cases) {
      for (const t of tokens(c.code, c.text)) assert.ok(c.text.includes(t.surface) && t.surface.length > 0, `${c.code}: ${t.surface}`);
    }
  });
});

describe('parseMapping with language analyzers', () => {
  it('accepts Nixiesearch language codes and names in analyze and keeps the name given', async () => {
    const { parseMapping } = await import('../../../src/engine/schema/mapping.js');
    const mapping = parseMapping(
      {
        fields: {
          titel: { type: 'text', search: { lexical: { analyze: 'de' } } },
          titre: { type: 'text', search: { lexical: { analyze: 'french' } } },
          body: { type: 'text', search: { lexical: { analyze: 'default' } } },
        },
      },
      'schema.docs',
    );
    assert.equal(mapping.field('titel')?.analyzer, 'de');
    assert.equal(mapping.field('titre')?.analyzer, 'french');
    assert.equal(mapping.field('body')?.analyzer, 'default');
  });
});
