/**
 * The tyre catalogue seeded into booking.tyre_stock_pricing (scripts/render-seed-sql.ts): common passenger, SUV and
 * 4WD sizes with several brands each. `retail` is the supply price per tyre in whole dollars, GST inclusive
 * (fitting and balancing are added per tyre by the quote); the cheapest tyre is the $139 "from" price shown on the
 * site. Purchase (cost) prices are 68% of retail, rounded to the cent, when seeded.
 */
export interface CatalogueTyre {
  size: string;
  brand: string;
  model: string;
  retail: number;
}

const rows: [size: string, entries: [brand: string, model: string, retail: number][]][] = [
  // Passenger
  [
    '175/65R14',
    [
      ['Kumho', 'Ecowing ES31', 139],
      ['Hankook', 'Kinergy Eco2', 149],
      ['Bridgestone', 'Ecopia EP150', 179],
    ],
  ],
  [
    '185/65R15',
    [
      ['Kumho', 'Ecowing ES31', 145],
      ['Hankook', 'Kinergy Eco2', 155],
      ['Michelin', 'Energy Saver+', 209],
    ],
  ],
  [
    '185/60R15',
    [
      ['Nexen', "N'blue HD Plus", 142],
      ['Yokohama', 'BluEarth-Es ES32', 165],
      ['Continental', 'ComfortContact CC7', 199],
    ],
  ],
  [
    '195/65R15',
    [
      ['Kumho', 'Ecowing ES31', 149],
      ['Toyo', 'Proxes CF2', 169],
      ['Bridgestone', 'Ecopia EP150', 199],
      ['Michelin', 'Primacy 4', 229],
    ],
  ],
  [
    '195/55R15',
    [
      ['Hankook', 'Ventus Prime3', 155],
      ['Yokohama', 'BluEarth-GT AE51', 175],
    ],
  ],
  [
    '205/65R15',
    [
      ['Kumho', 'Solus TA31', 159],
      ['Dunlop', 'SP Sport LM705', 189],
    ],
  ],
  [
    '195/55R16',
    [
      ['Hankook', 'Ventus Prime3', 165],
      ['Continental', 'ComfortContact CC7', 219],
    ],
  ],
  [
    '205/55R16',
    [
      ['Kumho', 'Ecsta HS52', 159],
      ['Hankook', 'Ventus Prime3', 169],
      ['Yokohama', 'BluEarth-GT AE51', 189],
      ['Bridgestone', 'Turanza T005', 229],
      ['Michelin', 'Primacy 4', 239],
    ],
  ],
  [
    '205/60R16',
    [
      ['Kumho', 'Solus TA31', 165],
      ['Toyo', 'Proxes CF2', 185],
      ['Bridgestone', 'Turanza T005', 235],
    ],
  ],
  [
    '215/60R16',
    [
      ['Hankook', 'Kinergy GT', 175],
      ['Dunlop', 'SP Sport LM705', 199],
      ['Michelin', 'Primacy 4', 255],
    ],
  ],
  [
    '215/55R17',
    [
      ['Kumho', 'Ecsta HS52', 185],
      ['Yokohama', 'BluEarth-GT AE51', 215],
      ['Continental', 'PremiumContact 7', 265],
    ],
  ],
  [
    '215/45R17',
    [
      ['Hankook', 'Ventus S1 evo3', 179],
      ['Pirelli', 'Cinturato P7', 259],
    ],
  ],
  [
    '225/45R17',
    [
      ['Kumho', 'Ecsta PS71', 179],
      ['Hankook', 'Ventus S1 evo3', 205],
      ['Pirelli', 'Cinturato P7', 275],
      ['Michelin', 'Pilot Sport 4', 289],
    ],
  ],
  [
    '225/50R17',
    [
      ['Nexen', "N'Fera SU1", 189],
      ['Bridgestone', 'Potenza Sport', 279],
    ],
  ],
  [
    '225/55R17',
    [
      ['Hankook', 'Ventus Prime3', 199],
      ['Continental', 'PremiumContact 7', 285],
    ],
  ],
  [
    '235/45R17',
    [
      ['Kumho', 'Ecsta PS71', 195],
      ['Michelin', 'Pilot Sport 4', 305],
    ],
  ],
  [
    '225/40R18',
    [
      ['Hankook', 'Ventus S1 evo3', 215],
      ['Pirelli', 'P Zero', 329],
    ],
  ],
  [
    '235/40R18',
    [
      ['Kumho', 'Ecsta PS71', 219],
      ['Michelin', 'Pilot Sport 4', 345],
    ],
  ],
  [
    '225/45R18',
    [
      ['Hankook', 'Ventus S1 evo3', 219],
      ['Continental', 'PremiumContact 7', 309],
    ],
  ],
  [
    '245/45R18',
    [
      ['Kumho', 'Ecsta PS71', 235],
      ['Bridgestone', 'Potenza Sport', 349],
    ],
  ],
  [
    '235/35R19',
    [
      ['Hankook', 'Ventus S1 evo3', 259],
      ['Pirelli', 'P Zero', 399],
    ],
  ],
  [
    '245/40R19',
    [
      ['Kumho', 'Ecsta PS71', 269],
      ['Michelin', 'Pilot Sport 4S', 429],
    ],
  ],
  // SUV
  [
    '215/65R16',
    [
      ['Kumho', 'Crugen HP71', 179],
      ['Bridgestone', 'Dueler H/T 684 II', 235],
    ],
  ],
  [
    '225/65R17',
    [
      ['Hankook', 'Dynapro HP2', 209],
      ['Yokohama', 'Geolandar G055', 235],
      ['Michelin', 'Primacy SUV+', 289],
    ],
  ],
  [
    '235/65R17',
    [
      ['Kumho', 'Crugen HP71', 219],
      ['Bridgestone', 'Alenza 001', 295],
    ],
  ],
  [
    '225/60R18',
    [
      ['Hankook', 'Dynapro HP2', 229],
      ['Continental', 'CrossContact RX', 299],
    ],
  ],
  [
    '235/55R18',
    [
      ['Kumho', 'Crugen HP71', 225],
      ['Michelin', 'Primacy SUV+', 319],
    ],
  ],
  [
    '235/60R18',
    [
      ['Hankook', 'Dynapro HP2', 235],
      ['Bridgestone', 'Alenza 001', 315],
    ],
  ],
  [
    '255/55R18',
    [
      ['Kumho', 'Crugen HP71', 255],
      ['Pirelli', 'Scorpion Verde', 359],
    ],
  ],
  [
    '235/55R19',
    [
      ['Hankook', 'Ventus S1 evo3 SUV', 259],
      ['Michelin', 'Pilot Sport 4 SUV', 359],
    ],
  ],
  // 4WD
  [
    '245/70R16',
    [
      ['Maxxis', 'Razr AT811', 259],
      ['Cooper', 'Discoverer AT3 4S', 279],
      ['BFGoodrich', 'All-Terrain T/A KO2', 325],
    ],
  ],
  [
    '265/70R16',
    [
      ['Maxxis', 'Razr AT811', 275],
      ['Cooper', 'Discoverer AT3 4S', 285],
      ['BFGoodrich', 'All-Terrain T/A KO2', 339],
    ],
  ],
  [
    '265/75R16',
    [
      ['Maxxis', 'Bighorn MT-764', 299],
      ['Cooper', 'Discoverer STT Pro', 389],
      ['BFGoodrich', 'Mud-Terrain T/A KM3', 399],
    ],
  ],
  [
    '265/65R17',
    [
      ['Cooper', 'Discoverer AT3 4S', 299],
      ['Toyo', 'Open Country A/T III', 319],
      ['BFGoodrich', 'All-Terrain T/A KO2', 349],
    ],
  ],
  [
    '265/70R17',
    [
      ['Cooper', 'Discoverer AT3 4S', 315],
      ['Toyo', 'Open Country A/T III', 335],
      ['BFGoodrich', 'All-Terrain T/A KO2', 369],
    ],
  ],
  [
    '285/70R17',
    [
      ['Cooper', 'Discoverer STT Pro', 429],
      ['BFGoodrich', 'All-Terrain T/A KO2', 449],
      ['Toyo', 'Open Country M/T', 459],
    ],
  ],
  [
    '265/60R18',
    [
      ['Bridgestone', 'Dueler H/T 684 II', 309],
      ['Toyo', 'Open Country A/T III', 335],
    ],
  ],
  [
    '265/65R18',
    [
      ['Cooper', 'Discoverer AT3 4S', 325],
      ['BFGoodrich', 'All-Terrain T/A KO2', 379],
    ],
  ],
];

export const TYRE_CATALOGUE: readonly CatalogueTyre[] = rows.flatMap(([size, entries]) =>
  entries.map(([brand, model, retail]) => ({ size, brand, model, retail })),
);

/** Cost price: 68% of retail, rounded half up to the cent (integer arithmetic). */
export function purchaseCents(retailDollars: number): bigint {
  return (BigInt(retailDollars) * 100n * 68n + 50n) / 100n;
}
