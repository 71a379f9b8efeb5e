// Where the price catalogue (@pydantic/genai-prices) lacks or misprices a model that the
// SDKs record, Weft points the name at another entry of the same catalogue. Short and
// dated on purpose: each entry says why and when it was checked, and goes once the
// catalogue gets it right. Never a second price list: no numbers here.

export interface PriceOverride {
  /** The llm_id as the SDKs record it (compared case-insensitively). */
  readonly llm_id: string;
  /** The catalogue model whose prices apply instead. */
  readonly use: string;
  /** From this date on (UTC, YYYY-MM-DD); null: always. Before it the catalogue answers as usual. */
  readonly since: string | null;
  readonly checked: string;
  readonly why: string;
}

export const PRICE_OVERRIDES: readonly PriceOverride[] = [
  {
    llm_id: 'mistral-small-2506',
    use: 'mistral-small-latest',
    since: null,
    checked: '2026-11-23',
    why: 'Mistral Small 3.2 by its dated name: absent from genai-prices 0.1.8; mistral-small-latest names the same model and price',
  },
  {
    llm_id: 'mistral-large-latest',
    use: 'mistral-large-2512',
    since: '2025-12-01',
    checked: '2026-11-23',
    why: 'genai-prices 0.1.8 still maps the alias to the 2024 Mistral Large; since Mistral Large 3 (2512) it serves that model',
  },
];
