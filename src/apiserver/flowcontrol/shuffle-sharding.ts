// Shuffle sharding: a flow's hash dealt into a hand of distinct queue indices, as kube deals it
// (k8s.io/apiserver pkg/util/shufflesharding/shufflesharding.go Deal).

/**
 * The hand for `hash` among `deckSize` queues: handSize remainders of successive divisions, each then shifted past
 * the cards already dealt so that the hand holds no duplicates. Deterministic: the same flow always gets the same hand.
 */
export function deal(hash: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let h = BigInt.asUintN(64, hash);
  for (let i = 0; i < handSize; i++) {
    const d = BigInt(deckSize - i);
    remainders.push(Number(h % d));
    h /= d;
  }
  const hand: number[] = [];
  for (let i = 0; i < handSize; i++) {
    let card = remainders[i]!;
    for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
    hand.push(card);
  }
  return hand;
}
