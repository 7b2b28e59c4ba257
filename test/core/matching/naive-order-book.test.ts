// NaiveOrderBook, the reference book, keeps the OrderBook contract.
import { bookFactory } from '../../support/books.js';
import { orderBookContract } from './order-book.contract.js';

orderBookContract('NaiveOrderBook', bookFactory('NaiveOrderBook'));
